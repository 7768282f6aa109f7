package org.netnslab.uevent;

/**
 * The ENOBUFS a listener sees once, before its next message, after its receive queue overflowed.
 *
 * @param dropped messages dropped for this listener since its previous ENOBUFS (the kernel does not
 *     report this number; the model does so that every loss can be accounted for)
 */
public record Enobufs(long dropped) implements Received {
  /** @return {@link Errno#ENOBUFS} */
  public Errno errno() {
    return Errno.ENOBUFS;
  }
}
