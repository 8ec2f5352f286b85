"""The contracts every layer builds on: the variant interface, Move and Outcome, the Agent and
Analyser contracts, the game runner and referee, game records, Ctrl-C, argument types."""
