"""The review as text: a ply's evaluation, a turning point, a side's accuracy (for the analyse
command, replay, report.md and anyone showing a review)."""
from typing import Optional

from .formulas import GLYPHS


def evaluation_text(cp: Optional[int], mate: Optional[int], win: float) -> str:
    """'+0.35', '#3' / '#-2' (mate in moves, White's view), or the result of a finished game."""
    if mate is not None:
        return f"#{mate}"
    if cp is not None:
        return f"{cp / 100:+.2f}"
    return {100.0: "1-0 (White won)", 0.0: "0-1 (Black won)"}.get(win, "1/2 (drawn)")


def mover_win(ply: dict, key: str) -> float:
    """The mover's win % (`key` "win_before" or "win_after": White's)."""
    return ply[key] if ply["colour"] == "white" else round(100 - ply[key], 2)


def ply_text(ply: dict) -> str:
    """One ply's review: 'c1c2?! (best d1d2): +0.35 -> -0.40, White's win 54.3 % -> 43.1 %,
    accuracy 74.7, inaccuracy'."""
    glyph = GLYPHS.get(ply.get("judgement"), "")
    best = "" if ply.get("best") in (None, ply["move"]) else f" (best {ply['best']})"
    before = evaluation_text(ply["cp_before"], ply["mate_before"], ply["win_before"])
    after = evaluation_text(ply["cp_after"], ply["mate_after"], ply["win_after"])
    side = ply["colour"].capitalize()
    text = (f"{ply['move']}{glyph}{best}: {before} -> {after}, {side}'s win "
            f"{mover_win(ply, 'win_before'):.1f} % -> {mover_win(ply, 'win_after'):.1f} %, "
            f"accuracy {ply['accuracy']:.1f}")
    text += f", {ply['judgement']}" if ply.get("judgement") else ""
    return text + (f" (second look: {ply['second_look']})" if ply.get("second_look") else "")


def turning_point_text(entry: dict, side: str) -> str:
    """'turning point: ply 23, White c0f3 (best e0d1), win 45 % -> 3 %' for `side`'s turning point
    (the mover's win %), or a line saying it has none."""
    number = (entry.get("turning_point") or {}).get(side)
    ply = next((p for p in entry.get("plies", []) if p["ply"] == number), None)
    if ply is None:
        return f"turning point: none (no move of {side.capitalize()}'s judged)"
    best = f" (best {ply['best']})" if ply.get("best") else ""
    return (f"turning point: ply {ply['ply']}, {side.capitalize()} {ply['move']}"
            f"{GLYPHS.get(ply.get('judgement'), '')}{best}, win {mover_win(ply, 'win_before'):.0f} % -> "
            f"{mover_win(ply, 'win_after'):.0f} %")


def accuracy_text(entry: dict) -> str:
    """'accuracy White 87.5 %, Black 62.1 %' (a side without analysed moves: '-')."""
    accuracy = entry.get("accuracy") or {}
    parts = [f"{side.capitalize()} " + ("-" if accuracy.get(side) is None else f"{accuracy[side]:.1f} %")
             for side in ("white", "black")]
    return "accuracy " + ", ".join(parts)
