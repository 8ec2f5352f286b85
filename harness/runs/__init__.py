"""Running many games: the series (plan, pool, progress), its results store, the cluster."""
