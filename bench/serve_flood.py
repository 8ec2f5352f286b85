"""`serve` under a flood, as issue 51 measured it: many games whose agent file moves first, then
many probes abandoned by their clients; the processes, threads and memory under the server, and
what is left after Ctrl-C.

Run: python bench/serve_flood.py [--agent AB.py] [--games 150] [--probes 60] [--abandon 0.5]
                                 [--max-games N]

Starts `python -m harness serve --port 0 --agent AGENT` (loopback), posts GAMES new games at once
(AGENT as White, a human as Black: each kept game's agent moves, then its process waits), waits
until the kept games' agents have moved, then posts PROBES probes of AGENT on the start position,
each abandoned by its client after ABANDON seconds. It prints the answers' status codes, the most
processes and threads seen under the server (sampled every 0.2 s), their resident memory, how
many processes are left 15 s after the probes, and how many processes naming AGENT outlive the
server after Ctrl-C (from /proc). Before issue 51 (150 games, 60 probes, AB.py): 193 processes,
about 1.6 GB; 53 threads and 60 AB.py processes after the abandoned probes; threads peaked at 142.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = {"cs3243": "nbqkaer/fpppppf/7/7/7/FPPPPPF/NBQKAER w - - 0 1"}


def parents():
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    found[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    return found


def below(pid):
    links, found, frontier = parents(), set(), {pid}
    while frontier:
        frontier = {child for child, parent in links.items() if parent in frontier} - found
        found |= frontier
    return found


def status(pid, key):
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def naming(text, but):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != but:
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if text.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                pass
    return found


def post(url, body, timeout, ids=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            if ids is not None:
                ids.append(json.loads(answer.read())["id"])
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return "gone"


def moved(url, game):
    with urllib.request.urlopen(f"{url}api/games/{game}", timeout=30) as answer:
        return bool(json.loads(answer.read())["moves"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="AB.py")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--probes", type=int, default=60)
    parser.add_argument("--abandon", type=float, default=0.5)
    parser.add_argument("--max-games", type=int, default=None)
    args = parser.parse_args()
    agent = os.path.abspath(args.agent)
    command = [sys.executable, "-m", "harness", "serve", "--port", "0", "--agent", agent]
    if args.max_games:
        command += ["--max-games", str(args.max_games)]
    server = subprocess.Popen(command, cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = server.stdout.readline().split()[2]
    most = {"processes": 0, "threads": 0, "rss_mb": 0.0}
    sampling = threading.Event()

    def sample():
        while not sampling.wait(0.2):
            pids = below(server.pid)
            most["processes"] = max(most["processes"], len(pids))
            most["threads"] = max(most["threads"], status(server.pid, "Threads"))
            rss = sum(status(pid, "VmRSS") for pid in pids | {server.pid}) / 1024
            most["rss_mb"] = max(most["rss_mb"], rss)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    try:
        codes, ids = [], []
        flood = [threading.Thread(target=lambda: codes.append(post(url + "api/games", {
            "white": agent, "black": "human"}, 60, ids))) for _ in range(args.games)]
        for thread in flood:
            thread.start()
        for thread in flood:
            thread.join()
        kept = codes.count(201)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all(moved(url, game) for game in ids):
            time.sleep(0.5)                      # each kept game's agent has moved
        refused = codes.count(503)
        print(f"games: {args.games} posted: {kept} x 201, {refused} x 503, others {len(codes) - kept - refused}")
        print(f"after the games: {len(below(server.pid))} processes under the server, "
              f"{status(server.pid, 'Threads')} threads")
        answers = []
        probes = [threading.Thread(target=lambda: answers.append(post(url + "api/best", {
            "variant": "cs3243", "fen": START["cs3243"], "agent": agent}, args.abandon)))
            for _ in range(args.probes)]
        for thread in probes:
            thread.start()
        for thread in probes:
            thread.join()
        print(f"probes: {args.probes} posted: {answers.count('gone')} abandoned, {answers.count(503)} x 503, "
              f"{answers.count(200)} x 200")
        time.sleep(15)
        print(f"15 s after the probes: {len(below(server.pid))} processes under the server, "
              f"{status(server.pid, 'Threads')} threads")
    finally:
        sampling.set()
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    time.sleep(1)
    print(f"most seen: {most['processes']} processes under the server, {most['threads']} threads, "
          f"{most['rss_mb']:.0f} MB resident (server and its processes)")
    print(f"after Ctrl-C: exit {server.returncode}, {len(naming(agent, -1))} processes naming {args.agent} left; "
          f"{time.monotonic() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
