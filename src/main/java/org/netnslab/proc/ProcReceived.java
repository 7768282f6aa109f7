package org.netnslab.proc;

/** What a proc connector listener receives: an event, or the one ENOBUFS after its queue overflowed. */
public sealed interface ProcReceived {
  /** @param event a process event */
  record Event(ProcEvent event) implements ProcReceived {}

  /** @param dropped events dropped for this listener since its previous ENOBUFS */
  record Enobufs(long dropped) implements ProcReceived {}
}
