"""`train-nnue --variant nthu --out NET`: train nnue's network (harness/training/nnue.py, docs/advanced.md)."""
import contextlib
import os
import sys

from .. import players
from .common import UsageError, add_variant_option, positive_int, variant_of, whole_number


def run(args) -> int:
    variant = variant_of(args)
    if "nnue" not in players.builtin_names(variant.name):      # the one network we train: NTHU's
        raise UsageError(f"{variant.name} has no nnue agent: train-nnue trains nthu's network")
    from ..training.nnue import TrainingError, TrainSettings, train
    settings = TrainSettings(out=args.out, positions=args.positions, epochs=args.epochs, seed=args.seed,
                             hidden=args.hidden, label_nodes=args.label_nodes,
                             work=args.work or os.path.join("reports", f"train-nnue-{args.seed}"))

    @contextlib.contextmanager
    def bar(total, desc):
        from tqdm import tqdm
        with tqdm(total=total, desc=desc, disable=args.quiet, file=sys.stderr, dynamic_ncols=True) as b:
            yield b
    try:
        result = train(settings, bar, args.jobs)
    except TrainingError as exc:
        raise UsageError(str(exc)) from None
    last = result.losses[-1] if result.losses else None
    print(f"positions: {result.positions} from {result.games} games in {result.seconds['positions']:g} s; "
          f"training: {len(result.losses)} epochs in {result.seconds['training']:g} s")
    if last is not None:
        print(f"loss (mean squared error): training {last['train']:.5f}, validation {last['validation']:.5f}")
    print(f"written: {result.out} (quantised), {result.float_out} (floats), {result.page} (loss curve)")
    return 0


def add_parser(sub) -> None:
    from ..training.nnue import TrainSettings
    d = TrainSettings(out="")
    p = sub.add_parser("train-nnue", help="train nnue's network (self-play, PyTorch on the CPU)",
                       description="Positions from self-play with random openings, labelled by ab's search "
                                   "and the game's result; a network trained with PyTorch (make train); "
                                   "the same settings give a byte-identical NET. See docs/advanced.md.")
    add_variant_option(p)
    p.add_argument("--out", required=True, metavar="NET", help="the network file to write (agents/nthu/nnue.json "
                                                                "is the shipped one); its floats go to NET.float.json")
    p.add_argument("--positions", type=positive_int, default=d.positions, metavar="N",
                   help=f"training positions (default {d.positions})")
    p.add_argument("--epochs", type=positive_int, default=d.epochs, metavar="E", help=f"default {d.epochs}")
    p.add_argument("--seed", type=whole_number, default=d.seed, metavar="S", help=f"default {d.seed}")
    p.add_argument("--hidden", type=positive_int, default=d.hidden, metavar="H",
                   help=f"hidden units per side's view (default {d.hidden})")
    p.add_argument("--label-nodes", type=positive_int, default=d.label_nodes, metavar="N",
                   help=f"ab's nodes per position for the labels (default {d.label_nodes})")
    p.add_argument("--work", metavar="DIR", help="positions, checkpoints and loss.html (default "
                                                 "reports/train-nnue-SEED); the run resumes from it")
    p.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1, metavar="J",
                   help="worker processes labelling the positions (default: the number of cores); "
                        "the network is the same whatever J")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
