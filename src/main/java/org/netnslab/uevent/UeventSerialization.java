package org.netnslab.uevent;

/**
 * How uevent sends are serialized: the {@code uevent.serialization} strategy of a design.
 */
public enum UeventSerialization {
  /** uevent_sock_mutex (v4.17..v6.8): every send goes through one owner actor. */
  GLOBAL_OWNER,
  /**
   * The 2018 proposal: a netns owned by a non-initial user namespace serializes its own sends in its
   * actor; netns owned by the initial user namespace still share the global owner.
   */
  PER_NETNS_OWNER,
  /** v6.9+: atomic counter, no owner; the sender delivers in its own context, order not guaranteed. */
  LOCKLESS;
}
