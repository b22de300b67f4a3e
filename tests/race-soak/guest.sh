# Make soak: 100,000 transitions per recipe on unionlite.
. /tests/lib/race.sh
RACE_TIMEOUT=5400
race_atomic unionlite 100000
