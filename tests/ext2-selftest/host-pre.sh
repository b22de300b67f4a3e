#!/bin/sh
# host-pre.sh EXT4_IMAGE EXT2_IMAGE: e/full at 32000 links (EXT2_LINK_MAX)
# holding a file f, and e/other/d, for the selftest's EMLINK cases.
set -e
img=$2
printf f > "$img.f"
for c in "mkdir e" "mkdir e/full" "mkdir e/other" "mkdir e/other/d" \
	"write $img.f e/full/f" "set_inode_field e/full links_count 32000"; do
	debugfs -w -R "$c" "$img" >/dev/null 2>&1
done
rm -f "$img.f"
