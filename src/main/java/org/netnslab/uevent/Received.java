package org.netnslab.uevent;

/**
 * What a uevent listener socket yields on receive: a message, or the one-time ENOBUFS that tells it
 * messages were dropped since its last receive.
 */
public sealed interface Received permits Uevent, Enobufs {}
