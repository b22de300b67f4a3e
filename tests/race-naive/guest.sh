# The observers catch a broken union: the same transitions done
# in several steps by hand on the upper layer are caught on every recipe
# within the budget of race-unionlite (500 transitions).
. /tests/lib/race.sh
race_caught upper 500
