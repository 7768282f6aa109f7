package org.netnslab.uevent;

import com.typesafe.config.Config;
import org.netnslab.netlink.EnobufsOption;
import org.netnslab.netlink.RcvbufOption;
import org.netnslab.netlink.SocketOptionSettings;
import org.netnslab.netlink.SocketOptions;
import org.netnslab.settings.Setting;

/**
 * A design's uevent settings ({@code netns-lab.model.uevent} in reference.conf). Immutable.
 *
 * @param serialization {@code uevent.serialization}: how uevent sends are serialized (lib/kobject_uevent.c)
 * @param seqnumScope {@code uevent.seqnum-scope}: one global SEQNUM counter or one per netns
 * @param listener the workload listeners' socket options: {@code uevent.listener-rcvbuf} (bytes given
 *     to setsockopt, 0: none, rmem_default), {@code uevent.listener-rcvbuf-option} (so-rcvbuf or
 *     so-rcvbufforce) and {@code uevent.listener-enobufs} (reported or no-enobufs)
 * @param fault {@code uevent.fault}: TEST-ONLY, a kernel rule broken on purpose ({@link UeventFault#NONE} normally)
 */
public record UeventSettings(
        UeventSerialization serialization, SeqnumScope seqnumScope, SocketOptions listener, UeventFault fault) {
    /** {@code uevent.serialization}. */
    public static final Setting<UeventSerialization> SERIALIZATION =
            Setting.strategy("uevent.serialization", UeventSerialization.class);
    /** {@code uevent.seqnum-scope}. */
    public static final Setting<SeqnumScope> SEQNUM_SCOPE = Setting.strategy("uevent.seqnum-scope", SeqnumScope.class);
    /** {@code uevent.listener-rcvbuf}, {@code -rcvbuf-option} and {@code -enobufs}. */
    public static final SocketOptionSettings LISTENER = SocketOptionSettings.under("uevent.");
    /** {@code uevent.listener-rcvbuf}. */
    public static final Setting<Integer> LISTENER_RCVBUF = LISTENER.rcvbuf();
    /** {@code uevent.listener-rcvbuf-option}. */
    public static final Setting<RcvbufOption> LISTENER_RCVBUF_OPTION = LISTENER.rcvbufOption();
    /** {@code uevent.listener-enobufs}. */
    public static final Setting<EnobufsOption> LISTENER_ENOBUFS = LISTENER.enobufs();
    /** {@code uevent.fault}: TEST-ONLY. */
    public static final Setting<UeventFault> FAULT = Setting.strategy("uevent.fault", UeventFault.class);

    /**
     * @param model a model config (a design's keys over {@code netns-lab.model})
     * @return the settings
     * @throws com.typesafe.config.ConfigException for a missing key or a wrong type
     * @throws IllegalArgumentException for an unknown strategy or a value out of range
     */
    public static UeventSettings fromConfig(Config model) {
        return new UeventSettings(
                SERIALIZATION.read(model), SEQNUM_SCOPE.read(model), LISTENER.read(model), FAULT.read(model));
    }
}
