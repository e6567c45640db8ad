"""What the server runs on, below the game: the bots' worker processes and the fair
scheduler that feeds them, notices between server processes, crash points for the
fault-injection tests, and throwaway PostgreSQL and Redis servers for tests and
benchmarks."""
