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
    /** Copies the capability set into an unmodifiable one. */
    public Credentials {
        effective =
                effective.isEmpty() ? Collections.emptySet() : Collections.unmodifiableSet(EnumSet.copyOf(effective));
    }

    /** @return root in {@code ns}, with every capability the model knows */
    public static Credentials root(UserNamespace ns, long euid) {
        return new Credentials(euid, ns, EnumSet.allOf(Capability.class));
    }

    /** @return a task in {@code ns} with no capabilities */
    public static Credentials unprivileged(UserNamespace ns, long euid) {
        return new Credentials(euid, ns, EnumSet.noneOf(Capability.class));
    }

    /**
     * Models ns_capable() / cap_capable() (security/commoncap.c): does this task have {@code cap} over
     * {@code target}? True if the task lives in {@code target} and holds the capability, or if the task
     * lives in an ancestor and created (owns) the child of its namespace that leads to {@code target}.
     * A task never has capabilities over a namespace that is not its own or a descendant.
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
