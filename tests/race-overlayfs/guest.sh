# The reference: the racing observers on the kernel's overlayfs
# find nothing in 100 transitions per recipe.
. /tests/lib/race.sh
race_atomic overlay 100
