// A table of our own for the keyboard tests (test_browser_keyboard.py): table.js drawn
// from hand-made frames, with every play it asks for kept in window.played.
async ([lang, blind]) => {
  localStorage.setItem("basra.blind", blind ? "1" : "0");
  const blindModule = await import("/static/blind.js");
  blindModule.setBlind(blind);
  const { TableView } = await import("/static/table.js");
  const root = document.createElement("div");
  root.id = "harness";
  document.getElementById("app").replaceChildren(root);
  window.played = [];
  const view = new TableView(root, { lang: () => lang, fast: true, toast: () => {} },
    { play: (move, version) => window.played.push([move, version]), hint: () => {} });
  view.setTable({ id: "t1", variant: "egyptian", rules: { direction: "ccw", target: 101 }, overrides: {},
    players: 2, teams: false, hints: true, status: "playing", you: 0,
    seats: [{ seat: 0, kind: "person", name: "Amal", present: true }, { seat: 1, kind: "bot", level: "easy" }] });
  window.frame = (turn, version, event = null) => ({ type: "state", version, event, view: {
    variant: "egyptian", players: 2, teams: false, phase: "play", round: 0, dealer: 1, turn,
    hand_sizes: [3, 4], known: [[], []], floor: ["3C", "4D", "5H", "2S"], stock: 40, stock_bottom: [],
    initial_floor: [], buried: [], plays: [], plays_from: 0, pile_sizes: [6, 2], basras: [1, 0],
    basra_points: [10, 0], last_capture_side: 0, scores: [12, 3], carry: 0, past_rounds: [],
    seat: 0, side: 0, hand: ["7S", "KD", "2C"], legal: turn === 0 ? ["7Sx3C,4D", "7Sx5H,2S", "KD", "2C"] : [],
    sides: [[0], [1]], winner: null, over: false } });
  view.accept(window.frame(0, 7));
  window.tableView = view;
}
