"""Playing against agents: a game with human and agent sides (`session`), shared by the
terminal (`terminal`, `play --white human`) and the local web app (`harness.web`, `serve`)."""
