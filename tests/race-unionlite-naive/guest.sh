# The observers catch unionlite's broken mode (naive=1: each
# transition in two visible steps) on every recipe within the budget of
# race-unionlite (500 transitions).
. /tests/lib/race.sh
race_caught unionlite 500
