package org.netnslab.netlink;

import com.typesafe.config.Config;
import org.netnslab.settings.Setting;

/**
 * The three settings of a design's listener sockets under one key prefix ({@code uevent.} or
 * {@code proc-connector.}), read into their {@link SocketOptions}. Immutable.
 *
 * @param rcvbuf {@code listener-rcvbuf}: bytes given to setsockopt, 0: none (rmem_default)
 * @param rcvbufOption {@code listener-rcvbuf-option}: so-rcvbuf or so-rcvbufforce
 * @param enobufs {@code listener-enobufs}: reported or no-enobufs
 */
public record SocketOptionSettings(
        Setting<Integer> rcvbuf, Setting<RcvbufOption> rcvbufOption, Setting<EnobufsOption> enobufs) {

    /**
     * @param prefix the keys' prefix, e.g. {@code uevent.}
     * @return the settings {@code prefix + listener-rcvbuf}, {@code -rcvbuf-option} and {@code -enobufs}
     */
    public static SocketOptionSettings under(String prefix) {
        return new SocketOptionSettings(
                Setting.integer(prefix + "listener-rcvbuf", 0, Integer.MAX_VALUE),
                Setting.strategy(prefix + "listener-rcvbuf-option", RcvbufOption.class),
                Setting.strategy(prefix + "listener-enobufs", EnobufsOption.class));
    }

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the listeners' socket options
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for an unknown strategy or a value out of range
     */
    public SocketOptions read(Config model) {
        return new SocketOptions(
                rcvbuf.read(model), rcvbufOption.read(model), enobufs.read(model) == EnobufsOption.NO_ENOBUFS);
    }
}
