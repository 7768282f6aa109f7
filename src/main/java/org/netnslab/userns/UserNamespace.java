package org.netnslab.userns;

import java.util.Objects;

/**
 * A user namespace (include/linux/user_namespace.h): an immutable value with its parent, its
 * nesting level (0 for the initial one) and the kuid of the task that created it, which holds every
 * capability in it from the parent namespace.
 *
 * @param id a unique id (the initial user namespace is 0)
 * @param parent the parent namespace, {@code null} only for the initial one
 * @param ownerKuid the creator's uid as seen from the initial user namespace
 * @param level 0 for the initial user namespace, parent's level + 1 otherwise
 */
public record UserNamespace(long id, UserNamespace parent, long ownerKuid, int level) {
    /** init_user_ns. */
    public static final UserNamespace INIT = new UserNamespace(0, null, 0, 0);

    /**
     * Checks the parent/level shape.
     *
     * @param id a unique id (the initial user namespace is 0)
     * @param parent the parent namespace, {@code null} only for the initial one
     * @param ownerKuid the creator's uid as seen from the initial user namespace
     * @param level 0 for the initial user namespace, parent's level + 1 otherwise
     * @throws IllegalArgumentException when the level does not follow the parent's or passes {@link #MAX_LEVEL}; a
     *     namespace without a parent other than init_user_ns (id 0, owner 0); an id below 0, or 0 for another than
     *     the initial one; an owner outside 0..4294967294
     */
    public UserNamespace {
        if (parent == null ? level != 0 : level != parent.level + 1) {
            throw new IllegalArgumentException(
                    "user namespace " + id + ": level " + level + " does not match its parent");
        }
        if (parent == null && (id != 0 || ownerKuid != 0)) {
            throw new IllegalArgumentException("user namespace " + id + ": one without a parent is init_user_ns (id"
                    + " 0, owner 0): use UserNamespace.INIT, and createChild for the others");
        }
        if (level > MAX_LEVEL) {
            throw new IllegalArgumentException("user namespace " + id + ": level " + level + " is past " + MAX_LEVEL
                    + ": create_user_ns refuses a child of a namespace at level 33 (ENOSPC)");
        }
        if (id < 0 || (id == 0 && parent != null)) {
            throw new IllegalArgumentException("user namespace " + id + ": a child's id must be above 0 (0 is the"
                    + " initial user namespace's, and a namespace is known by its id)");
        }
        requireKuid(ownerKuid, "user namespace " + id + ": ownerKuid");
    }

    /**
     * The deepest level a user namespace has: create_user_ns (kernel/user_namespace.c) fails with ENOSPC when the
     * parent's level is above 32 (MAX_PID_NS_LEVEL).
     */
    public static final int MAX_LEVEL = 33;

    /** The largest kuid: kuid_t is 32 bits and (uid_t)-1 means none (include/linux/uidgid.h, uid_valid). */
    static final long MAX_KUID = 0xFFFF_FFFEL;

    /**
     * @param kuid a uid as seen from the initial user namespace
     * @param what what it is, for the message
     * @throws IllegalArgumentException outside 0..{@value #MAX_KUID}
     */
    static void requireKuid(long kuid, String what) {
        if (kuid < 0 || kuid > MAX_KUID) {
            throw new IllegalArgumentException(what + " must be a kuid in 0.." + MAX_KUID + ", got " + kuid);
        }
    }

    /**
     * Models create_user_ns(): a child of this namespace created by {@code creator}.
     *
     * @param id the child's unique id
     * @param creatorKuid the creating task's uid (kuid)
     * @return the child namespace
     */
    public UserNamespace createChild(long id, long creatorKuid) {
        return new UserNamespace(id, this, creatorKuid, level + 1);
    }

    /** @return true for init_user_ns */
    public boolean isInitial() {
        return parent == null;
    }

    // Identity is the id with the owner, along the whole chain to init_user_ns, so that a namespace made with
    // another's id is not taken for it; compared in a loop (at most 34 levels), not recursively.
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof UserNamespace)) {
            return false;
        }
        UserNamespace a = this;
        UserNamespace b = (UserNamespace) o;
        while (a != null && b != null) {
            if (a == b) {
                return true;
            }
            if (a.id != b.id || a.level != b.level || a.ownerKuid != b.ownerKuid) {
                return false;
            }
            a = a.parent;
            b = b.parent;
        }
        return a == null && b == null;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id);
    }

    @Override
    public String toString() {
        return "userns[" + id + ", level " + level + ", owner " + ownerKuid + "]";
    }

    /** Null-safe identity check used by {@link Credentials#nsCapable}. */
    static boolean same(UserNamespace a, UserNamespace b) {
        return Objects.equals(a, b);
    }
}
