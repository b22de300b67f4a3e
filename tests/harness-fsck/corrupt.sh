#!/bin/sh
# corrupt.sh EXT4_IMAGE EXT2_IMAGE: give the ext4 root directory a wrong
# link count, an error e2fsck -fn reports (and must not repair).
set -e
debugfs -w -R "set_inode_field <2> links_count 9" "$1" >/dev/null 2>&1
