package org.netnslab.userns;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A task's credentials (include/linux/cred.h): its effective uid (kuid), the user namespace it lives
 * in, and its effective capabilities in that namespace. Immutable.
 *
 * @param euid the effective uid as seen from the initial user namespace
 * @param userNs the user namespace the task lives in
 * @param effective the capabilities it holds in {@code userNs}
 */
public record Credentials(long euid, UserNamespace userNs, Set<Capability> effective) {
    /**
     * Copies the capability set into an unmodifiable one.
     *
     * @param euid the effective uid as seen from the initial user namespace
     * @param userNs the user namespace the task lives in
     * @param effective the capabilities it holds in {@code userNs}
     * @throws NullPointerException naming a null {@code userNs} or {@code effective}: a shared actor that checks the
     *     credentials (the global uevent owner) would otherwise fail on them
     * @throws IllegalArgumentException an euid outside 0..4294967294 (a kuid is 32 bits; (uid_t)-1 is none)
     */
    public Credentials {
        java.util.Objects.requireNonNull(
                userNs, "Credentials: userNs is null (UserNamespace.INIT for the initial one)");
        java.util.Objects.requireNonNull(effective, "Credentials: effective is null (an empty set for no capability)");
        UserNamespace.requireKuid(euid, "Credentials: euid");
        effective =
                effective.isEmpty() ? Collections.emptySet() : Collections.unmodifiableSet(EnumSet.copyOf(effective));
    }

    /**
     * A task that is root in {@code ns}: uid 0 there, with every capability the model knows in it.
     *
     * @param ns the user namespace the task lives in
     * @param euid its uid as seen from the initial user namespace (the kuid: e.g. the uid {@code ns}'s uid 0 maps
     *     to, 1000 for a namespace an unprivileged user 1000 created; 0 in the initial one)
     * @return the credentials
     */
    public static Credentials root(UserNamespace ns, long euid) {
        return new Credentials(euid, ns, EnumSet.allOf(Capability.class));
    }

    /**
     * @param ns the user namespace the task lives in
     * @param euid its uid as seen from the initial user namespace (kuid)
     * @return a task in {@code ns} with no capabilities
     */
    public static Credentials unprivileged(UserNamespace ns, long euid) {
        return new Credentials(euid, ns, EnumSet.noneOf(Capability.class));
    }

    /**
     * Models ns_capable() / cap_capable() (security/commoncap.c): does this task have {@code cap} over
     * {@code target}? True if the task lives in {@code target} and holds the capability, or if the task
     * lives in an ancestor and created (owns) the child of its namespace that leads to {@code target}.
     * A task never has capabilities over a namespace that is not its own or a descendant.
     *
     * @param target the user namespace the capability is checked over (e.g. a netns's owner)
     * @param cap the capability
     * @return whether the task has it there
     */
    public boolean nsCapable(UserNamespace target, Capability cap) {
        UserNamespace ns = target;
        while (ns != null) {
            if (UserNamespace.same(ns, userNs)) {
                return effective.contains(cap);
            }
            if (ns.level() <= userNs.level()) {
                return false;
            }
            if (UserNamespace.same(ns.parent(), userNs) && ns.ownerKuid() == euid) {
                return true;
            }
            ns = ns.parent();
        }
        return false;
    }
}
