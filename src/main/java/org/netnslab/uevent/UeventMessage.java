package org.netnslab.uevent;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A uevent as it travels on a NETLINK_KOBJECT_UEVENT socket: {@code ACTION@DEVPATH} NUL, then
 * NUL-terminated {@code KEY=VALUE} strings, {@code SEQNUM=n} last, no netlink header
 * (lib/kobject_uevent.c). Instances are immutable; {@link #keys()} keeps the wire order.
 *
 * <p>Limits as the kernel applies them: {@link #UEVENT_BUFFER_SIZE} bytes and {@link #UEVENT_NUM_ENVP}
 * keys for kernel-generated events (add_uevent_var, -ENOMEM); for an injected message the 16-byte
 * netlink header plus the payload plus {@code SEQNUM=n} and its NUL must fit in 2048 bytes
 * (uevent_net_rcv_skb, -EINVAL).
 *
 * @param header the first string, {@code ACTION@DEVPATH}
 * @param keys the {@code KEY=VALUE} pairs in wire order, {@code SEQNUM} last when present
 */
public record UeventMessage(String header, Map<String, String> keys) {
    /** UEVENT_BUFFER_SIZE: bytes available for the environment block of one uevent. */
    public static final int UEVENT_BUFFER_SIZE = 2048;
    /** UEVENT_NUM_ENVP: keys one kernel-generated uevent may carry. */
    public static final int UEVENT_NUM_ENVP = 64;
    /** sizeof(struct nlmsghdr): counted against the buffer when a message is injected. */
    public static final int NLMSG_HDRLEN = 16;

    private static final byte[] SEQNUM_PREFIX = "SEQNUM=".getBytes(StandardCharsets.US_ASCII);

    /** Copies {@code keys} into an unmodifiable map that keeps insertion order. */
    public UeventMessage {
        keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
    }

    /** @return the ACTION part of the header, or the whole header when it has no '@' */
    public String action() {
        int at = header.indexOf('@');
        return at < 0 ? header : header.substring(0, at);
    }

    /** @return the SEQNUM key as a number, or -1 when the message carries none */
    public long seqnum() {
        String s = keys.get("SEQNUM");
        return s == null ? -1 : Long.parseLong(s);
    }

    /** @return the wire form: header NUL, then each {@code KEY=VALUE} NUL, in order */
    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        out.writeBytes(header.getBytes(StandardCharsets.UTF_8));
        out.write(0);
        for (Map.Entry<String, String> e : keys.entrySet()) {
            out.writeBytes((e.getKey() + "=" + e.getValue()).getBytes(StandardCharsets.UTF_8));
            out.write(0);
        }
        return out.toByteArray();
    }

    /**
     * Parses the wire form.
     *
     * @param wire header NUL then NUL-terminated {@code KEY=VALUE} strings
     * @return the message
     * @throws IllegalArgumentException when the bytes are empty, a string is not NUL-terminated, or a
     *     key string has no '='; the message names the byte offset at fault
     */
    public static UeventMessage decode(byte[] wire) {
        List<String> strings = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < wire.length; i++) {
            if (wire[i] == 0) {
                strings.add(new String(wire, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (strings.isEmpty()) {
            throw new IllegalArgumentException("uevent: no NUL-terminated header in " + wire.length + " bytes");
        }
        if (start != wire.length) {
            throw new IllegalArgumentException("uevent: string at byte " + start + " is not NUL-terminated");
        }
        Map<String, String> keys = new LinkedHashMap<>();
        int offset = strings.get(0).length() + 1;
        for (String kv : strings.subList(1, strings.size())) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "uevent: key string at byte " + offset + " has no KEY=: '" + kv + "'");
            }
            keys.put(kv.substring(0, eq), kv.substring(eq + 1));
            offset += kv.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        return new UeventMessage(strings.get(0), keys);
    }

    /**
     * Reads the SEQNUM from the last key of a wire message without decoding the rest, as a listener
     * such as udev would. Cost: one backward scan over the last key.
     *
     * @return the SEQNUM value, or -1 when the last key is not {@code SEQNUM=n}
     */
    public static long seqnumOf(byte[] wire) {
        int end = wire.length - 1; // the last NUL
        if (end < 1 || wire[end] != 0) {
            return -1;
        }
        int start = end - 1;
        while (start >= 0 && wire[start] != 0) {
            start--;
        }
        start++;
        int digits = start + SEQNUM_PREFIX.length;
        if (digits >= end) {
            return -1;
        }
        for (int i = 0; i < SEQNUM_PREFIX.length; i++) {
            if (wire[start + i] != SEQNUM_PREFIX[i]) {
                return -1;
            }
        }
        long value = 0;
        for (int i = digits; i < end; i++) {
            int d = wire[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            value = value * 10 + d;
        }
        return value;
    }

    /**
     * Builds a kernel-generated uevent the way kobject_uevent_env does: {@code ACTION}, {@code DEVPATH},
     * {@code SUBSYSTEM}, the caller's keys, then {@code SEQNUM=<++counter>} last.
     *
     * <p>SEQNUM consumption follows the kernel: when the keys before SEQNUM already break a limit the
     * event fails with ENOMEM and consumes no number; when only adding SEQNUM breaks it, the number is
     * consumed anyway (a gap) and the event fails with ENOMEM.
     *
     * @param action the kobject action, e.g. {@code add}
     * @param devpath the device path, e.g. {@code /devices/virtual/net/veth0}
     * @param subsystem the subsystem name; an empty one makes the kernel drop the event silently
     * @param extraKeys the caller's {@code KEY=VALUE} pairs, in order
     * @param seqnum the counter to take the SEQNUM from
     * @return the message with SEQNUM last
     * @throws UeventException ENOENT for an empty devpath, EINVAL for an empty subsystem (the kernel
     *     returns 0 and sends nothing; the model reports it so callers can count it), ENOMEM past 64
     *     keys or 2048 bytes
     */
    public static UeventMessage kernelEvent(
            String action, String devpath, String subsystem, Map<String, String> extraKeys, SeqnumCounter seqnum)
            throws UeventException {
        if (devpath == null || devpath.isEmpty()) {
            throw new UeventException(Errno.ENOENT, "no DEVPATH");
        }
        if (subsystem == null || subsystem.isEmpty()) {
            throw new UeventException(Errno.EINVAL, "no SUBSYSTEM: the kernel drops the event without a SEQNUM");
        }
        Map<String, String> keys = new LinkedHashMap<>();
        EnvBuffer env = new EnvBuffer();
        env.add(keys, "ACTION", action);
        env.add(keys, "DEVPATH", devpath);
        env.add(keys, "SUBSYSTEM", subsystem);
        for (Map.Entry<String, String> e : extraKeys.entrySet()) {
            env.add(keys, e.getKey(), e.getValue());
        }
        long n = seqnum.next(); // consumed before the SEQNUM key is added, as in the kernel
        env.add(keys, "SEQNUM", Long.toString(n));
        return new UeventMessage(action + "@" + devpath, keys);
    }

    /** Mirrors struct kobj_uevent_env's accounting: key count and bytes used, each key with its NUL. */
    private static final class EnvBuffer {
        private int count;
        private int bytes;

        void add(Map<String, String> keys, String key, String value) throws UeventException {
            int len = (key + "=" + value).getBytes(StandardCharsets.UTF_8).length + 1;
            if (count >= UEVENT_NUM_ENVP) {
                throw new UeventException(
                        Errno.ENOMEM,
                        "too many keys: " + key + " would be key " + (count + 1) + " of at most " + UEVENT_NUM_ENVP);
            }
            if (bytes + len > UEVENT_BUFFER_SIZE) {
                throw new UeventException(
                        Errno.ENOMEM,
                        "buffer too small: " + key + " needs " + len + " bytes, " + (UEVENT_BUFFER_SIZE - bytes)
                                + " of " + UEVENT_BUFFER_SIZE + " left");
            }
            keys.put(key, value);
            count++;
            bytes += len;
        }
    }

    /**
     * Appends {@code SEQNUM=n} NUL to an injected payload, as uevent_net_rcv_skb does after checking
     * the size: header + payload + the SEQNUM string and its NUL must fit in 2048 bytes.
     *
     * @param payload the bytes the injector sent (not parsed, as the kernel does not parse them)
     * @param seqnum the number already taken from the counter
     * @return payload followed by {@code SEQNUM=n} NUL
     * @throws UeventException EINVAL when the result would not fit
     */
    public static byte[] appendSeqnum(byte[] payload, long seqnum) throws UeventException {
        // The digits are written straight into the message (no String, no encode): under the global owner
        // this runs for every injection on the one serial actor, a hot path.
        int digits = seqnum < 0 ? Long.toString(seqnum).length() : decimalDigits(seqnum);
        int needed = NLMSG_HDRLEN + payload.length + SEQNUM_PREFIX.length + digits + 1;
        if (needed > UEVENT_BUFFER_SIZE) {
            throw new UeventException(
                    Errno.EINVAL,
                    "injected message needs " + needed + " bytes with its netlink header"
                            + " and SEQNUM, more than UEVENT_BUFFER_SIZE " + UEVENT_BUFFER_SIZE);
        }
        byte[] wire = new byte[payload.length + SEQNUM_PREFIX.length + digits + 1];
        System.arraycopy(payload, 0, wire, 0, payload.length);
        System.arraycopy(SEQNUM_PREFIX, 0, wire, payload.length, SEQNUM_PREFIX.length);
        int at = payload.length + SEQNUM_PREFIX.length;
        if (seqnum < 0) { // only a faulty counter goes there; Long.toString's form
            byte[] text = Long.toString(seqnum).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(text, 0, wire, at, text.length);
        } else {
            long v = seqnum;
            for (int i = at + digits - 1; i >= at; i--) {
                wire[i] = (byte) ('0' + (int) (v % 10));
                v /= 10;
            }
        }
        wire[wire.length - 1] = 0;
        return wire;
    }

    /** @return how many decimal digits {@code v} (at least 0) has: 1 for 0 */
    private static int decimalDigits(long v) {
        int n = 1;
        for (long limit = 10; n < 19 && v >= limit; limit *= 10) {
            n++;
        }
        return n;
    }
}
