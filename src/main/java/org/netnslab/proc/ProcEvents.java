package org.netnslab.proc;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The proc connector's constants (include/uapi/linux/cn_proc.h, v6.6): event types, the filter-only
 * NONZERO_EXIT flag, and the multicast operations.
 */
public final class ProcEvents {
    private ProcEvents() {}

    /** PROC_EVENT_NONE: acknowledgements. */
    public static final int NONE = 0x0;
    /** PROC_EVENT_FORK. */
    public static final int FORK = 0x1;
    /** PROC_EVENT_EXEC. */
    public static final int EXEC = 0x2;
    /** PROC_EVENT_UID. */
    public static final int UID = 0x4;
    /** PROC_EVENT_GID. */
    public static final int GID = 0x40;
    /** PROC_EVENT_SID. */
    public static final int SID = 0x80;
    /** PROC_EVENT_PTRACE. */
    public static final int PTRACE = 0x100;
    /** PROC_EVENT_COMM. */
    public static final int COMM = 0x200;
    /** PROC_EVENT_NONZERO_EXIT: a filter flag only; such exits are sent as EXIT. */
    public static final int NONZERO_EXIT = 0x20000000;
    /** PROC_EVENT_COREDUMP. */
    public static final int COREDUMP = 0x40000000;
    /** PROC_EVENT_EXIT. */
    public static final int EXIT = 0x80000000;
    /** PROC_EVENT_ALL: every event and flag. */
    public static final int ALL = FORK | EXEC | UID | GID | SID | PTRACE | COMM | NONZERO_EXIT | COREDUMP | EXIT;

    /** PROC_CN_MCAST_LISTEN. */
    public static final int MCAST_LISTEN = 1;
    /** PROC_CN_MCAST_IGNORE. */
    public static final int MCAST_IGNORE = 2;

    /** Every event and flag by its name as a scenario spells it (FORK ... EXIT, and ALL), in cn_proc.h order. */
    private static final Map<String, Integer> BY_NAME = byName();

    private static Map<String, Integer> byName() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("FORK", FORK);
        m.put("EXEC", EXEC);
        m.put("UID", UID);
        m.put("GID", GID);
        m.put("SID", SID);
        m.put("PTRACE", PTRACE);
        m.put("COMM", COMM);
        m.put("NONZERO_EXIT", NONZERO_EXIT);
        m.put("COREDUMP", COREDUMP);
        m.put("EXIT", EXIT);
        m.put("ALL", ALL);
        return Collections.unmodifiableMap(m);
    }

    /**
     * @param what one event type ({@link ProcEvent#what()})
     * @return its name as a scenario spells it (e.g. {@code EXIT}), or its value in hex for a type with no name
     */
    public static String name(int what) {
        if (what == NONE) { // PROC_EVENT_NONE: the connector's answer to a LISTEN
            return "NONE";
        }
        for (Map.Entry<String, Integer> e : BY_NAME.entrySet()) {
            if (e.getValue() == what && what != ALL) {
                return e.getKey();
            }
        }
        return String.format("0x%x", what);
    }

    /** @return every event and flag name a mask may be built from (PROC_EVENT_ without its prefix), ALL included */
    public static Set<String> names() {
        return BY_NAME.keySet();
    }

    /**
     * @param names event names, e.g. {@code [FORK, EXIT]}
     * @return their mask, or empty when a name is not one of {@link #names()}
     */
    public static OptionalInt mask(List<String> names) {
        int mask = 0;
        for (String n : names) {
            Integer bit = BY_NAME.get(n);
            if (bit == null) {
                return OptionalInt.empty();
            }
            mask |= bit;
        }
        return OptionalInt.of(mask);
    }

    /**
     * @param mask an event mask
     * @return its names joined by '|', e.g. {@code FORK|EXIT}, or {@code NONE}
     */
    public static String names(int mask) {
        if (mask == ALL) {
            return "ALL";
        }
        StringBuilder sb = new StringBuilder();
        BY_NAME.forEach((name, bit) -> {
            if (bit != ALL && (mask & bit) != 0) {
                sb.append(sb.length() == 0 ? "" : "|").append(name);
            }
        });
        return sb.length() == 0 ? "NONE" : sb.toString();
    }
}
