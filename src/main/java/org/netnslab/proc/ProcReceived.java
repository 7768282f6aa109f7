package org.netnslab.proc;

/**
 * What a proc connector listener's recvmsg returns: an event, or the ENOBUFS after its socket overran
 * (once per congestion episode, ahead of queued events; see {@link org.netnslab.netlink.ReceiveQueue}).
 */
public sealed interface ProcReceived {
    /** @param event a process event */
    record Event(ProcEvent event) implements ProcReceived {}

    /** @param dropped events its congestion episode had dropped when the error was read (model-only) */
    record Enobufs(long dropped) implements ProcReceived {}
}
