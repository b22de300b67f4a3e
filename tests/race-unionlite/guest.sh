# The racing observers find nothing on unionlite: 200
# transitions per recipe on the base and kcsan kernels, 20 on the debug
# kernel (KASAN and lockdep make it about 20 times slower).
. /tests/lib/race.sh
race_atomic unionlite "$(race_count 200 20)"
