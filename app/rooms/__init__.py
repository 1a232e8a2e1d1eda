"""Room lifecycle and the match runner: apply -> persist -> publish. No FastAPI here."""
