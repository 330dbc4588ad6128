"""One list of State's fields (engine/state.py), by what each copy of a state does with each.

A snapshot (snapshots.py: undo's checkpoints, a clone's data) takes the TAKEN fields and gives them
back; a clone (State.clone) takes those and the rest of CLONED; a save (interpreter/saves.py) writes
SAVED. The OWN fields are each state's own. tests/test_state_fields.py fails when a field of State is
declared in none of these, or in two."""

# The rules' data: a snapshot copies it deeply (one marshal, or sharing.copy_shared), so what two
# places share stays shared.
DATA = ("_vars", "frames", "pending", "revealed", "winners")
# The machine's place and the events: kept as they are (the history is linked pairs never changed in
# place; the drain marks by player are a dict, copied).
PLAIN = ("status", "step", "moves_made", "history", "history_len", "drained", "drained_by", "_held_most")
TAKEN = DATA + PLAIN
# A clone also takes the generator (forked), the seed and the compiled game.
CLONED = TAKEN + ("rng", "seed", "game")
# Each state's own: undo's log, the options gathered for the pending decision, the snapshot it takes its
# data back from (a clone's lending), whether its variables were handed out, the work left to the run.
OWN = ("undo_log", "_legal", "_lent", "_vars_out", "_work_left", "_steps_left")
# What a save writes: not the compiled game (the loader's), the bound on what the state holds (counted
# at its first run), nor the players' drain marks (a loaded game starts them afresh).
SAVED = DATA + ("status", "step", "moves_made", "history", "history_len", "drained", "rng", "seed")
