// Errors in forms, written for people: the field named by its label, marked
// (aria-invalid, a red border) and described by the error, and the focus taken
// there. The server says which field was wrong (its errors carry a `field`); the
// page checks what a field itself knows (required, length, range) before sending.

/** The words a person sees as a control's name: its label, its legend, or its aria-label. */
export function labelOf(control) {
  if (!control) return "";
  const byFor = control.id ? document.querySelector(`label[for="${CSS.escape(control.id)}"]`) : null;
  const label = byFor || control.closest("label");
  let text = "";
  if (label) {
    const copy = label.cloneNode(true);
    for (const inner of copy.querySelectorAll("input, select, textarea, .sr-hide-label")) inner.remove();
    text = copy.textContent;
  } else if (control.getAttribute("aria-label")) {
    text = control.getAttribute("aria-label");
  } else if (control.getAttribute("aria-labelledby")) {
    text = control.getAttribute("aria-labelledby").split(/\s+/).map((id) => document.getElementById(id)?.textContent || "").join(" ");
  } else {
    text = control.closest("fieldset")?.querySelector("legend")?.textContent || "";
  }
  return text.replace(/\s+/g, " ").replace(/[:：]\s*$/, "").trim();
}

/** Take the marks of :func:`markField` off every field in ``scope``, and empty ``error``. */
export function clearMarks(scope, error) {
  for (const node of scope.querySelectorAll("[aria-invalid='true']")) {
    node.removeAttribute("aria-invalid");
    const described = (node.getAttribute("aria-describedby") || "").split(/\s+/).filter((id) => id && id !== error?.id);
    if (described.length) node.setAttribute("aria-describedby", described.join(" ")); else node.removeAttribute("aria-describedby");
  }
  if (error) error.textContent = "";
}

/**
 * Mark ``controls`` wrong and say why in ``error`` (an element with an id, role="alert"):
 * the first control takes the focus (a closed <details> around it opens first).
 */
export function markField(controls, message, error) {
  const list = (Array.isArray(controls) ? controls : [controls]).filter(Boolean);
  error.textContent = message;
  for (const control of list) {
    control.setAttribute("aria-invalid", "true");
    const described = new Set((control.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean));
    described.add(error.id);
    control.setAttribute("aria-describedby", [...described].join(" "));
  }
  const first = list[0];
  if (first) {
    const details = first.closest("details");
    if (details) details.open = true;
    first.focus();
  }
}

/**
 * What is wrong with a field, by its own constraints (required, minlength, maxlength,
 * min, max, pattern), in words naming its label; null when nothing is.
 */
export function problemOf(control, t) {
  if (control.disabled || !control.validity) return null;
  const label = labelOf(control);
  const length = control.value.length;
  const shortest = Number(control.getAttribute("minlength") || 0);
  // The browser counts minlength only after typing: checked here for any value.
  if (length && shortest && length < shortest) return t("err_field_short", { label, n: shortest });
  const v = control.validity;
  if (v.valid) return null;
  if (v.valueMissing) return t("err_field_required", { label });
  if (v.tooShort) return t("err_field_short", { label, n: shortest });
  if (v.tooLong) return t("err_field_long", { label, n: Number(control.getAttribute("maxlength")) });
  if (v.rangeUnderflow || v.rangeOverflow || v.stepMismatch || v.badInput) {
    return t("err_field_range", { label, low: Number(control.min), high: Number(control.max) });
  }
  if (v.patternMismatch) return t("err_field_chars", { label });
  return t("err_field_invalid", { label });
}

/** Check every field of ``form``: mark all that are wrong, say the first's problem. True when all are right. */
export function checkFields(form, error, t) {
  clearMarks(form, error);
  const found = [...form.querySelectorAll("input, select, textarea")].map((c) => [c, problemOf(c, t)]).filter(([, problem]) => problem);
  if (!found.length) return true;
  const wrong = found.map(([c]) => c);
  const messages = found.map(([, problem]) => problem);
  markField(wrong, [...new Set(messages)].join(" "), error);
  return false;
}
