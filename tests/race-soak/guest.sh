# make soak (or make race-soak N=...): N transitions per recipe on
# unionlite, 100,000 unless the kernel command line says ul.race_count=N.
# Each recipe's line must say "no violations" (race_atomic fails
# otherwise); the rates go to the console log.
. /tests/lib/race.sh
n=100000
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	ul.race_count=*) n=${arg#ul.race_count=} ;;
	esac
done
RACE_TIMEOUT=5400
race_atomic unionlite "$n"
