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
     * @throws IllegalArgumentException when the level does not follow the parent's; an id below 0, or 0 for another
     *     than the initial one (0 is init_user_ns's, and identity is the id); an owner outside 0..4294967294
     */
    public UserNamespace {
        if (parent == null ? level != 0 : level != parent.level + 1) {
            throw new IllegalArgumentException(
                    "user namespace " + id + ": level " + level + " does not match its parent");
        }
        if (id < 0 || (id == 0 && parent != null)) {
            throw new IllegalArgumentException("user namespace " + id + ": a child's id must be above 0 (0 is the"
                    + " initial user namespace's, and a namespace is known by its id)");
        }
        requireKuid(ownerKuid, "user namespace " + id + ": ownerKuid");
    }

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

    // Identity is the id, with the owner and the parent's id so that a namespace made with another's id is not
    // taken for it; a deep parent chain must not be compared or hashed recursively.
    @Override
    public boolean equals(Object o) {
        return o instanceof UserNamespace u
                && u.id == id
                && u.level == level
                && u.ownerKuid == ownerKuid
                && (u.parent == null ? parent == null : parent != null && u.parent.id == parent.id);
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
