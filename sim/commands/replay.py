"""``wasteland replay SAVE``: replay a saved game and print its event log."""

from __future__ import annotations

import argparse
from typing import Any

from sim.save import load_game


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help="print the event log of a saved game",
        description="Replay a saved game from its seed and actions (refused when the "
                    "scenario changed since) and print every event, one per line.")
    p.add_argument("save", metavar="SAVE", help="a save file (JSON)")
    p.add_argument("--actions", action="store_true",
                   help="also print each action before the events it caused")
    p.add_argument("--summary", action="store_true",
                   help="print the final state summary at the end")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    state = load_game(args.save)
    for action, events in state.log_by_action():
        if args.actions and action is not None:
            print(f"> {action}")
        for event in events:
            print(event)
    if args.summary:
        print(state.summary())
    return 0
