"""train-nnue: positions from self-play, labelled by a deeper search and the game's result, a
network trained with PyTorch on the CPU, written quantised for agents/nthu/nnue_eval.py.

**Data.** Game g (g = 0, 1, ...) opens with 2 to 8 random plies (a generator seeded with
``seed`` and g), then ab's search (agents/nthu/search.py, `label_nodes` nodes a move, no clock:
the same every time) plays both sides to the end. Each position the search met is kept when
its best move is quiet (not a capture, not a promotion: the evaluation is asked at quiet
positions, quiescence takes the rest) and its score is no won or lost game; its label is from
the side to move's view: ``target = LAMBDA * sigmoid(score / K) + (1 - LAMBDA) * result``, with
the search's score (ab's units, a pawn 100), K = 200, LAMBDA = 0.75 and the game's result
(1 won, 0.5 drawn, 0 lost).

**Training.** The network of nnue_eval.py in floats; the loss is the mean squared error
between ``sigmoid(100 y / K)`` and the target (y: its output in pawns); Adam, batches of 256, a
tenth of the positions held out for the validation loss. One thread and
``torch.use_deterministic_algorithms``: the same settings give a byte-identical network.

**Resume.** The work folder keeps the settings, the positions (one game's at a time, with its
number) and a checkpoint after every epoch; a run started again with the same settings goes on
from there (other settings: refused in one line).
"""
import dataclasses
import json
import math
import os
import random
import time
from typing import Callable, List, Optional

from harness.variants.nthu import core

from ..players import nnue_parts

_EVAL, _SEARCH = nnue_parts()
FEATURES, FORMAT, feature = _EVAL.FEATURES, _EVAL.FORMAT, _EVAL.feature
MATE_BOUND, Search = _SEARCH.MATE_BOUND, _SEARCH.Search

K = 200.0                 # ab's units per logistic unit of the label and the prediction
LAMBDA = 0.75             # the search score's weight in the label (the game result's: 1 - LAMBDA)
QA, QB = 64, 64
BATCH = 256
LEARNING_RATE = 2e-3
VALIDATION = 0.1


class TrainingError(Exception):
    """A training run that cannot go on (one line)."""


@dataclasses.dataclass(frozen=True)
class TrainSettings:
    out: str
    positions: int = 40000
    epochs: int = 30
    seed: int = 0
    hidden: int = 32
    label_nodes: int = 2000
    work: str = "reports/train-nnue"

    def key(self) -> dict:
        """What decides the network (the files' names do not)."""
        return {"positions": self.positions, "epochs": self.epochs, "seed": self.seed,
                "hidden": self.hidden, "label_nodes": self.label_nodes}


# -- positions ------------------------------------------------------------------------------

def play_game(game: int, seed: int, label_nodes: int) -> List[list]:
    """The labelled positions of self-play game `game`: [board, side, plies, score, result]."""
    rng = random.Random(seed * 1_000_003 + game)
    board, side, plies = core.START, 1, 0
    for _ in range(rng.randint(2, 8)):
        ms = core.moves(board, side)
        if not ms or core.can_take_king(board, side):
            return []
        board, side, plies = core.play(board, rng.choice(ms)), -side, plies + 1
    search = Search(seed)
    kept = []
    winner = 0
    while True:
        if plies >= core.STEP_LIMIT:
            lead = core.material(board, 1)
            winner = (lead > 0) - (lead < 0)
            break
        if core.can_take_king(board, side):
            winner = side
            break
        move, score, _ = search.best_move(board, side, plies, max_nodes=label_nodes, score_forced=True)
        if move is None:
            winner = -side
            break
        quiet = not board[move[1]] and core.play(board, move)[move[1]] == board[move[0]]
        if quiet and abs(score) < MATE_BOUND and not core.can_take_king(board, -side):
            kept.append([list(board), side, plies, score])
        board, side, plies = core.play(board, move), -side, plies + 1
    for entry in kept:
        entry.append(0.5 if winner == 0 else 1.0 if winner == entry[1] else 0.0)
    return kept


def _labelled(args):
    """play_game for a worker process (top level: picklable)."""
    return play_game(*args)


def generate(settings: TrainSettings, progress: Callable[[int], None], jobs: int = 1) -> List[list]:
    """`settings.positions` positions, resumed from the work folder's positions.jsonl (whole
    games only: a game cut short is played again). With `jobs` > 1 the games are played by that
    many worker processes, a few games ahead, and written in game order: game g depends only on
    (seed, g, label_nodes), so the positions are the same whatever `jobs`."""
    path = os.path.join(settings.work, "positions.jsonl")
    lines, positions = [], []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    break
                if not line.endswith("\n") or record.get("game") != len(lines):
                    break
                lines.append(line)
                positions.extend(record["positions"])
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines)
    games = len(lines)
    progress(min(len(positions), settings.positions))
    if len(positions) >= settings.positions:
        return positions[:settings.positions]
    pool = None
    if jobs > 1:
        import concurrent.futures
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs)
    try:
        pending: dict = {}
        ahead = games
        with open(path, "a", encoding="utf-8") as f:
            while len(positions) < settings.positions:
                if pool is None:
                    found = play_game(games, settings.seed, settings.label_nodes)
                else:
                    while ahead < games + 2 * jobs:
                        pending[ahead] = pool.submit(_labelled, (ahead, settings.seed, settings.label_nodes))
                        ahead += 1
                    found = pending.pop(games).result()
                f.write(json.dumps({"game": games, "positions": found}) + "\n")
                f.flush()
                positions.extend(found)
                games += 1
                progress(min(len(positions), settings.positions))
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    return positions[:settings.positions]


def target(score: float, result: float) -> float:
    return LAMBDA / (1.0 + math.exp(-score / K)) + (1.0 - LAMBDA) * result


def features_of(board) -> tuple:
    """(White's view's active inputs, Black's view's)."""
    return ([feature(p, sq, 1) for sq, p in enumerate(board) if p],
            [feature(p, sq, -1) for sq, p in enumerate(board) if p])


# -- the network in torch -------------------------------------------------------------------

def _model(torch, hidden: int):
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = nn.Linear(FEATURES, hidden + 1, bias=False)   # the last column: psqt
            self.b1 = nn.Parameter(torch.zeros(hidden))
            self.out = nn.Linear(2 * hidden, 1)
            with torch.no_grad():
                self.w1.weight.normal_(0.0, 0.05)
                self.b1.fill_(0.5)
                self.out.weight.normal_(0.0, 0.05)
                self.out.bias.zero_()
                psqt = torch.zeros(FEATURES)
                for code in range(1, 7):      # own pieces start at their course value, in pawns
                    psqt[(code - 1) * 30:code * 30] = core.VALUE[code] / 2.0
                self.w1.weight[hidden] = psqt

        def forward(self, white, black, side):
            aw, ab = self.w1(white), self.w1(black)
            us = torch.where(side > 0, aw, ab)
            them = torch.where(side > 0, ab, aw)
            h = hidden
            hid = torch.cat([torch.clamp(us[:, :h] + self.b1, 0.0, 1.0),
                             torch.clamp(them[:, :h] + self.b1, 0.0, 1.0)], dim=1)
            return us[:, h] - them[:, h] + self.out(hid)[:, 0]      # pawns

    return Net()


def _tensors(torch, positions):
    n = len(positions)
    white = torch.zeros(n, FEATURES)
    black = torch.zeros(n, FEATURES)
    side = torch.zeros(n, 1)
    targets = torch.zeros(n)
    for i, (board, s, _plies, score, result) in enumerate(positions):
        fw, fb = features_of(board)
        white[i, fw] = 1.0
        black[i, fb] = 1.0
        side[i, 0] = s
        targets[i] = target(score, result)
    return white, black, side, targets


def float_weights(model, hidden: int) -> dict:
    """The trained network in floats (nnue_eval's layout; y in pawns)."""
    w = model.w1.weight.detach().double()
    r = lambda x: float(f"{float(x):.6g}")        # 6 significant digits: the file stays small
    return {"format": FORMAT + "-float", "hidden": hidden,
            "w1": [[r(w[j, f]) for j in range(hidden)] for f in range(FEATURES)],
            "psqt": [r(w[hidden, f]) for f in range(FEATURES)],
            "b1": [r(x) for x in model.b1.detach()],
            "w2": [r(x) for x in model.out.weight.detach()[0]],
            "b2": r(model.out.bias.detach()[0])}


def quantise(floats: dict) -> dict:
    """The integers nnue_eval.Network reads: W1, b1 x QA; w2 x QB; psqt and b2 x 100 (ab's units)."""
    return {"format": FORMAT, "hidden": floats["hidden"], "qa": QA, "qb": QB,
            "w1": [[round(x * QA) for x in row] for row in floats["w1"]],
            "b1": [round(x * QA) for x in floats["b1"]],
            "psqt": [round(x * 100) for x in floats["psqt"]],
            "w2": [round(x * QB) for x in floats["w2"]],
            "b2": round(floats["b2"] * 100)}


def float_evaluate(floats: dict, board, side) -> float:
    """The float network's evaluation (ab's units) of `board` for `side` to move, from scratch
    (the reference the quantised one is compared with)."""
    h = floats["hidden"]
    accs = []
    for view in (1, -1):
        acc = list(floats["b1"]) + [0.0]
        for sq, p in enumerate(board):
            if p:
                f = feature(p, sq, view)
                for j in range(h):
                    acc[j] += floats["w1"][f][j]
                acc[h] += floats["psqt"][f]
        accs.append(acc)
    us, them = (accs[0], accs[1]) if side == 1 else (accs[1], accs[0])
    y = us[h] - them[h] + floats["b2"]
    w2 = floats["w2"]
    for j in range(h):
        y += min(max(us[j], 0.0), 1.0) * w2[j] + min(max(them[j], 0.0), 1.0) * w2[h + j]
    return 100.0 * y


def network_text(data: dict) -> str:
    """A network as its file's text: one line per input row (small diffs, readable)."""
    head = {k: v for k, v in data.items() if k not in ("w1", "psqt")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, separators=(',', ':'))},")
    lines.append(f'  "psqt": {json.dumps(data["psqt"], separators=(",", ":"))},')
    lines.append('  "w1": [')
    rows = [json.dumps(row, separators=(",", ":")) for row in data["w1"]]
    lines.append(",\n".join("    " + r for r in rows))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


@dataclasses.dataclass
class TrainResult:
    out: str
    float_out: str
    page: str
    positions: int
    games: int
    losses: List[dict]
    seconds: dict


def train(settings: TrainSettings, bar: Optional[Callable] = None, jobs: int = 1) -> TrainResult:
    """Generate (or resume) the positions, train (or resume), write the network, its float twin
    (OUT with .float.json) and the loss page (WORK/loss.html)."""
    import importlib.util
    if importlib.util.find_spec("torch") is None:      # imported after the positions (worker processes)
        raise TrainingError("train-nnue needs PyTorch: make train (pip install -r requirements-train.txt)")
    os.makedirs(settings.work, exist_ok=True)
    settings_path = os.path.join(settings.work, "settings.json")
    if os.path.exists(settings_path):
        with open(settings_path, encoding="utf-8") as f:
            try:
                kept = json.load(f)
            except json.JSONDecodeError:
                kept = None
        if kept != settings.key():
            raise TrainingError(f"{settings.work} holds a run with other settings ({kept}): "
                                "give another --work or remove it")
    else:
        with open(settings_path, "w", encoding="utf-8") as f:
            json.dump(settings.key(), f)
    bar = bar or (lambda total, desc: _NoBar())
    started = time.perf_counter()
    with bar(settings.positions, "positions") as b:
        done = [0]

        def progress(n):
            b.update(n - done[0])
            done[0] = n
        positions = generate(settings, progress, jobs)
    with open(os.path.join(settings.work, "positions.jsonl"), encoding="utf-8") as f:
        games = sum(1 for _ in f)
    generated = time.perf_counter()

    import torch
    torch.manual_seed(settings.seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    white, black, side, targets = _tensors(torch, positions)
    n = len(positions)
    n_val = max(1, int(n * VALIDATION)) if n > 1 else 0
    order = torch.randperm(n, generator=torch.Generator().manual_seed(settings.seed))
    val_idx, train_idx = order[:n_val], order[n_val:]
    model = _model(torch, settings.hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    checkpoint = os.path.join(settings.work, "checkpoint.pt")
    losses: List[dict] = []
    first_epoch = 0
    if os.path.exists(checkpoint):
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimiser.load_state_dict(state["optimiser"])
        losses, first_epoch = state["losses"], state["epoch"]

    def loss_of(idx):
        pred = torch.sigmoid(model(white[idx], black[idx], side[idx]) * 100.0 / K)
        return torch.mean((pred - targets[idx]) ** 2)

    with bar(settings.epochs, "epochs") as b:
        b.update(first_epoch)
        for epoch in range(first_epoch, settings.epochs):
            perm = train_idx[torch.randperm(len(train_idx), generator=torch.Generator().manual_seed(
                settings.seed * 1000 + epoch))]
            total, count = 0.0, 0
            model.train()
            for i in range(0, len(perm), BATCH):
                idx = perm[i:i + BATCH]
                optimiser.zero_grad()
                loss = loss_of(idx)
                loss.backward()
                optimiser.step()
                total += float(loss.detach()) * len(idx)
                count += len(idx)
            with torch.no_grad():
                val = float(loss_of(val_idx)) if n_val else float("nan")
            losses.append({"epoch": epoch + 1, "train": total / max(count, 1), "validation": val})
            torch.save({"model": model.state_dict(), "optimiser": optimiser.state_dict(),
                        "losses": losses, "epoch": epoch + 1}, checkpoint + ".tmp")
            os.replace(checkpoint + ".tmp", checkpoint)
            b.update(1)
    trained = time.perf_counter()
    floats = float_weights(model, settings.hidden)
    floats["trained"] = settings.key()
    quantised = quantise(floats)
    quantised["trained"] = settings.key()
    float_out = float_path(settings.out)
    for path, data in ((settings.out, quantised), (float_out, floats)):
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(network_text(data))
    page = os.path.join(settings.work, "loss.html")
    seconds = {"positions": round(generated - started, 1), "training": round(trained - generated, 1)}
    with open(page, "w", encoding="utf-8") as f:
        f.write(loss_page(settings, losses, seconds, n, games))
    return TrainResult(settings.out, float_out, page, n, games, losses, seconds)


def float_path(out: str) -> str:
    """The float twin of a network file: nnue.json -> nnue.float.json."""
    root, ext = os.path.splitext(out)
    return root + ".float" + (ext or ".json")


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n=1):
        pass


def loss_page(settings: TrainSettings, losses: List[dict], seconds: dict, positions: int, games: int) -> str:
    """The loss curve (training and validation per epoch) as a page with an inline SVG."""
    from harness.view.html import inline_svg, new_figure
    figure, axes = new_figure()
    epochs = [x["epoch"] for x in losses]
    axes.plot(epochs, [x["train"] for x in losses], marker="o", label="training")
    axes.plot(epochs, [x["validation"] for x in losses], marker="s", label="validation")
    axes.set_xlabel("epoch")
    axes.set_ylabel("mean squared error")
    axes.legend()
    svg = inline_svg(figure, "loss")
    rows = "".join(f"<tr><td>{x['epoch']}</td><td>{x['train']:.5f}</td><td>{x['validation']:.5f}</td></tr>"
                   for x in losses)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>train-nnue: loss</title></head><body>"
            f"<h1>train-nnue: loss</h1><p>{positions} positions from {games} self-play games "
            f"({seconds['positions']} s), {settings.epochs} epochs ({seconds['training']} s), seed "
            f"{settings.seed}, hidden {settings.hidden}, labels by ab at {settings.label_nodes} nodes, "
            f"target {LAMBDA} sigmoid(score/{K:g}) + {1 - LAMBDA:g} result.</p>{svg}"
            f"<table><tr><th>epoch</th><th>training</th><th>validation</th></tr>{rows}</table></body></html>\n")
