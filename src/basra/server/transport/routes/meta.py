"""What a client needs to know before anything else: the variants, and custom settings.

- ``GET /api/variants``: the presets, their settings and descriptions, the bot
  levels, the bounds on settings, the rating families, the clock bounds and what
  a rated table may change;
- ``POST /api/rules`` ``{"variant", "rules"}``: check custom settings.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict

from basra.bots import LEVELS
from basra.rules import PRESETS, SETTING_NAMES, VARIANT_DESCRIPTIONS
from basra.server.table.clocks import CONTROL_BOUNDS, DEFAULT_CONTROL, forfeit_rule
from basra.server.table.forms import RATED_SETTINGS, RULE_BOUNDS, check_rules
from basra.server.table.ratings import FAMILIES
from basra.server.transport.deps import form

__all__ = ["RulesForm", "router"]

router = APIRouter()


class RulesForm(BaseModel):
    """``POST /api/rules``: a variant and settings to check."""

    model_config = ConfigDict(extra="forbid", strict=True)
    variant: str = "egyptian"
    rules: dict[str, Any] | None = None


@router.get("/api/variants")
async def variants() -> dict[str, Any]:
    """The presets and everything the create-table form needs."""
    return {
        "variants": [
            {
                "name": name,
                "description": VARIANT_DESCRIPTIONS.get(name, ""),
                "rules": rules.to_dict(),
            }
            for name, rules in PRESETS.items()
        ],
        "settings": list(SETTING_NAMES),
        "levels": list(LEVELS),
        "bounds": {name: list(bound) for name, bound in RULE_BOUNDS.items()},
        "families": {name: list(variants) for name, variants in FAMILIES.items()},
        "clock_bounds": {name: list(bound) for name, bound in CONTROL_BOUNDS.items()},
        "rated": {
            "settings": sorted(RATED_SETTINGS),
            "clock": DEFAULT_CONTROL.to_json(),
            "forfeit": forfeit_rule(),
        },
    }


@router.post("/api/rules")
async def check(body: Annotated[RulesForm, Depends(form(RulesForm))]) -> dict[str, Any]:
    """Check custom settings: the rules they make, and the overrides of the preset."""
    rules, overrides = check_rules(body.variant, body.rules)
    return {"variant": body.variant, "rules": rules.to_dict(), "overrides": overrides}
