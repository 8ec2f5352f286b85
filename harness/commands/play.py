"""`play --white A --black B`: one game, shown move by move."""
from .. import players
from ..isolation.box import BoxSettings
from ..core.game import Game
from ..play.session import HUMAN, Session, default_hint
from ..play.terminal import play_in_terminal
from ..core.referee import play_game
from ..runs.results import append_record
from .common import (UsageError, add_game_options, agents_help, add_game_time_option, agent_spec, check_writable,
                     move_timeout_of, start_options, variant_of)


def describe_result(record: dict) -> str:
    if record["result"] == "draw":
        outcome = "Draw"
    else:
        outcome = f"{record['result'].capitalize()} ({record[record['result']]}) wins"
    return f"{outcome} by {record['reason']} after {record['plies']} plies."


def print_output_notes(record: dict) -> None:
    for colour, text in (record.get("printed") or {}).items():
        if text:
            print(f"\n{colour.capitalize()} printed (the course rejects files that print):")
            print("    " + text.rstrip().replace("\n", "\n    "))
    for colour, count in (record.get("mutated") or {}).items():
        if count:
            print(f"{colour.capitalize()} changed the board it was given on {count} moves "
                  f"(it only ever gets a copy).")


def run(args) -> int:
    variant = variant_of(args)
    if args.out:
        check_writable(args.out)       # before the game, not after it
    human = HUMAN in (args.white, args.black)
    if human and args.hint == HUMAN:
        raise UsageError("--hint human: the hint is an agent's answer; give an agent (default: the variant's "
                         "strongest built-in)")
    for spec in (args.white, args.black) + ((args.hint,) if human and args.hint else ()):
        if spec != HUMAN:
            agent_spec(spec, variant.name)
    game = Game(variant, variant.start(**start_options(args, variant)))
    print(f"White: {args.white}   Black: {args.black}   seed {args.seed}   {variant.describe(game.state)}")
    if not human:
        print(variant.board_text(game.state))
    print(f"({variant.legend()}; upper case White, lower case Black)\n", flush=True)
    if human:
        record = human_game(args, variant, game.state)
    else:
        record = agents_game(args, variant, game)

    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            append_record(handle, {"game": 0, **record})
    print(f"\n{describe_result(record)}")
    if record["error"]:
        print(f"Error: {record['error']}")
    print_output_notes(record)
    if args.out:
        print(f"saved: {args.out} (python -m harness replay {args.out} --game 0)")
    return 0


def human_game(args, variant, start) -> dict:
    """A game with a human side (harness.play): its record."""
    session = Session(variant, args.white, args.black, args.seed, start, move_timeout_of(args, variant),
                      BoxSettings(), args.game_time)
    try:
        play_in_terminal(session, args.hint or default_hint(variant))
        return session.record()
    finally:
        session.close()


def agents_game(args, variant, game: Game) -> dict:
    def show(game: Game, colour: str, move, seconds: float) -> None:
        print(f"{game.plies:>3}. {colour:<5} {variant.move_name(move)}  ({seconds:.3f} s)")
        print(variant.board_text(game.state, last=move), flush=True)

    white = players.build(args.white, move_timeout_of(args, variant), variant.name)
    black = players.build(args.black, move_timeout_of(args, variant), variant.name)
    try:
        record = play_game(white, black, args.seed, game, on_move=show, game_time=args.game_time)
    finally:
        white.close()
        black.close()
    return record


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="one game shown move by move; `human` on a side plays it from the keyboard")
    p.add_argument("--white", required=True, metavar="AGENT", help=lambda: f"{HUMAN} (you, at the keyboard) or " + agents_help())
    p.add_argument("--black", required=True, metavar="AGENT", help=lambda: f"{HUMAN} (you, at the keyboard) or " + agents_help())
    p.add_argument("--hint", metavar="AGENT", help="with a human side: the agent that answers `hint` "
                                                  "(default: the variant's strongest built-in)")
    add_game_options(p, "the game's seed (default 0)")
    add_game_time_option(p, None)
    p.add_argument("--out", metavar="FILE", help="also save the game as a results record (JSON line) for replay")
    p.set_defaults(run=run)
