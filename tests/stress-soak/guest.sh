# Make soak: stress-debug for 20 minutes.
. /tests/lib/stress.sh
stress_run 1200
