// SPDX-License-Identifier: GPL-2.0
/*
 * unionlite: what every other file uses: the mounter's credentials,
 * write access to the upper layer, the opaque mark of a real directory,
 * and the test-only fault injection. It calls no other file of the
 * module; each file above uses only the files below it (ops.h lists
 * them bottom up).
 */

#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/xattr.h>
#include "ops.h"

/**
 * ul_override_creds - run with the mounter's credentials
 * @sb: the union super block
 *
 * Return: the credentials to give back to revert_creds().
 */
const struct cred *ul_override_creds(struct super_block *sb)
{
	return override_creds(UL_FS(sb)->creator_cred);
}

/**
 * ul_want_write - get write access to the upper mount
 * @sb: the union super block
 *
 * Taken before any upper inode lock (it includes the freeze protection).
 *
 * Return: 0, -EROFS in a union without upper layer or without work dir
 * (read-only), or a negative errno from mnt_want_write().
 */
int ul_want_write(struct super_block *sb)
{
	struct ul_fs *ufs = UL_FS(sb);

	return ufs->workdir ? mnt_want_write(ufs->upper_mnt) : -EROFS;
}

/**
 * ul_drop_write - give back what ul_want_write() took
 * @sb: the union super block
 */
void ul_drop_write(struct super_block *sb)
{
	mnt_drop_write(UL_FS(sb)->upper_mnt);
}

/**
 * ul_check_opaque - is a real directory opaque?
 * @userns: the idmapping of its layer's mount
 * @real: a dentry of the upper or a lower layer
 *
 * Called with the mounter's credentials.
 *
 * Return: 1 if @real is a directory with trusted.overlay.opaque = "y",
 * 0 if not, a negative errno if the attribute could not be read.
 */
int ul_check_opaque(struct user_namespace *userns, struct dentry *real)
{
	ssize_t res;
	char val;

	if (!d_is_dir(real))
		return 0;
	res = vfs_getxattr(userns, real, UL_XATTR_OPAQUE, &val, 1);
	if (res == 1 && val == 'y')
		return 1;
	if (res < 0 && res != -ENODATA && res != -EOPNOTSUPP && res != -ERANGE)
		return res;
	return 0;
}

/**
 * ul_inject_fault - test-only fault injection
 * @nth: a module parameter: the number of calls left until the fault
 *
 * Counts *@nth down by one. Writing N to the parameter arms it again.
 *
 * Return: true when this call takes it from 1 to 0: the caller fails.
 */
bool ul_inject_fault(unsigned int *nth)
{
	unsigned int n = READ_ONCE(*nth);

	while (n) {
		if (try_cmpxchg(nth, &n, n - 1))
			return n == 1;
	}
	return false;
}
