"""What the server runs on, below the game: the bots' worker processes and the fair
scheduler that feeds them, the one background-job queue (reviews, mining, offline
checks), notices between server processes, crash points for the
fault-injection tests, and throwaway PostgreSQL and Redis servers for tests and
benchmarks."""
