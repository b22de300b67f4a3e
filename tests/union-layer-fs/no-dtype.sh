#!/bin/sh
# HOST_PRE: remake the ext2 image (second argument) without d_type.
mke2fs -q -F -t ext2 -O ^filetype -L ul-ext2 "$2" 64M >/dev/null
