"""`similar CLASS_DIR`: copied code across a class, earlier classes and other solutions."""
import argparse
import os

from .. import similarity
from .common import UsageError, default_out, positive_int


def share_or_threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"'{text}' must be above 0 and at most 1")
    return value


def run(args) -> int:
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise UsageError(f"--out {args.out} is a file: give a folder")
    for folder in args.previous:
        if not os.path.isdir(folder):
            raise UsageError(f"--previous {folder} is not a folder of an earlier class")
    outcome = similarity.run(args.class_dir, args.out, previous=args.previous, references=args.reference,
                             templates=args.template, threshold=args.threshold, share=args.share, top=args.top,
                             jobs=args.jobs, default_refs=not args.no_default_references)
    flagged = [p for p in outcome.data["pairs"] if p["flagged"]]
    print(f"{outcome.members} class members, {outcome.others} earlier and reference members: "
          f"{len(outcome.data['pairs'])} pairs listed, {len(flagged)} flagged at similarity >= {args.threshold:g} "
          f"({outcome.seconds:.1f} s)")
    for pair in flagged[:20]:
        print(f"  {pair['similarity'] * 100:5.1f} %  {pair['a']}  {pair['b']}  "
              f"({pair['shared_tokens']} shared tokens, longest fragment {pair['longest_fragment']})")
    if len(flagged) > 20:
        print(f"  ... and {len(flagged) - 20} more flagged pairs")
    if outcome.problems:
        print(f"{len(outcome.problems)} inputs left out or read with changes (said on stderr)")
    print(f"written: {outcome.paths['json']}, {outcome.paths['csv']}, {outcome.paths['html']}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("similar", help="copied code: a class compared with itself, earlier classes and "
                                       "other solutions (similarity.json/.csv/.html)")
    p.add_argument("class_dir", metavar="CLASS_DIR",
                   help="a class as grade reads it: sub-folders NAME/ (all their .py .cpp .cc .h .hpp files) "
                        "or loose NAME.py files")
    p.add_argument("--previous", action="append", default=[], metavar="DIR",
                   help="an earlier class in the same layout, compared with this class (repeat for several)")
    p.add_argument("--reference", action="append", default=[], metavar="PATH",
                   help="another solution, a file or a folder (a public repository); repeat for several")
    p.add_argument("--template", action="append", default=[], metavar="PATH",
                   help="code the students were given (files or folders): left out of every submission")
    p.add_argument("--no-default-references", action="store_true",
                   help="do not compare with this toolkit's AB.py and its exported NTHU player")
    p.add_argument("--threshold", type=share_or_threshold, default=similarity.DEFAULT_THRESHOLD, metavar="T",
                   help=f"a pair is flagged at this similarity or more (default {similarity.DEFAULT_THRESHOLD:g})")
    p.add_argument("--share", type=share_or_threshold, default=similarity.DEFAULT_SHARE, metavar="S",
                   help=f"passages found in more than this share of the class are ignored "
                        f"(default {similarity.DEFAULT_SHARE:g}; see docs/similarity.md)")
    p.add_argument("--top", type=positive_int, default=similarity.DEFAULT_TOP, metavar="N",
                   help=f"pairs listed besides those near the threshold (default {similarity.DEFAULT_TOP})")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="J",
                   help="files read and fingerprinted at once (default: the number of cores)")
    p.add_argument("--out", default=default_out("similarity"), metavar="DIR",
                   help="where similarity.json, .csv and .html go (default reports/similarity)")
    p.set_defaults(run=run)
