package org.netnslab.uevent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A uevent SEQNUM counter: {@code uevent_seqnum} in lib/kobject_uevent.c when the scope is global,
 * or one per netns as the 2018 proposal had it. The last assigned value is what
 * {@code /sys/kernel/uevent_seqnum} shows.
 *
 * <p>Thread-safe. A global counter is shared on purpose between every sender the design allows
 * (the owner actor under {@code global-owner}, the netns actors and the owner under
 * {@code per-netns-owner}, the senders themselves under {@code lockless}); an atomic keeps numbers
 * unique in every case, and the design's serialization decides whether they are also delivered in
 * order. A counter never resets: a failed send leaves a gap, as in the kernel.
 */
public final class SeqnumCounter {
  private final AtomicLong last = new AtomicLong();

  /** @return the next SEQNUM (the first is 1) */
  public long next() {
    return last.incrementAndGet();
  }

  /** @return the last SEQNUM assigned, 0 before the first; the sysfs {@code uevent_seqnum} read */
  public long last() {
    return last.get();
  }
}
