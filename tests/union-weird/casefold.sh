#!/bin/sh
# HOST_PRE: remake the second image (ext2 by default) as ext4 with casefold.
mke2fs -q -F -t ext4 -O casefold -L ul-casefold "$2" 64M >/dev/null
