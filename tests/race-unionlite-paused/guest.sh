# The racing observers with a pause after every step of the upper layer
# (step_pause_ms=1, with the locks held): the time between two steps of a
# recipe becomes most of the transition, so a state between two steps
# that the upper layer or the union shows (a whiteout that hides a lower
# name before the exchange that replaces it, say) is seen within a few
# transitions instead of by chance.
. /tests/lib/race.sh
race_atomic unionlite "$(race_count 10 10)" step_pause_ms=1
