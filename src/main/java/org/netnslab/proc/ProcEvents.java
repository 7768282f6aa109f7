package org.netnslab.proc;

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

  /**
   * @param mask an event mask
   * @return its names joined by '|', e.g. {@code FORK|EXIT}, or {@code NONE}
   */
  public static String names(int mask) {
    if (mask == ALL) {
      return "ALL";
    }
    StringBuilder sb = new StringBuilder();
    String[] n = {"FORK", "EXEC", "UID", "GID", "SID", "PTRACE", "COMM", "NONZERO_EXIT", "COREDUMP", "EXIT"};
    int[] v = {FORK, EXEC, UID, GID, SID, PTRACE, COMM, NONZERO_EXIT, COREDUMP, EXIT};
    for (int i = 0; i < v.length; i++) {
      if ((mask & v[i]) != 0) {
        sb.append(sb.length() == 0 ? "" : "|").append(n[i]);
      }
    }
    return sb.length() == 0 ? "NONE" : sb.toString();
  }
}
