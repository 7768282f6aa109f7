package org.netnslab.uevent;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class UeventMessageTest extends JUnitSuite {

    private static Map<String, String> keys(int n) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put("K" + i, "v");
        }
        return m;
    }

    @Test
    public void encodeThenDecodeGivesTheSameMessageAndTheKernelWireLayout() {
        Map<String, String> k = new LinkedHashMap<>();
        k.put("ACTION", "add");
        k.put("DEVPATH", "/devices/virtual/net/veth0");
        k.put("SEQNUM", "42");
        UeventMessage m = new UeventMessage("add@/devices/virtual/net/veth0", k);
        byte[] wire = m.encode();
        assertArrayEquals(
                "add@/devices/virtual/net/veth0\0ACTION=add\0DEVPATH=/devices/virtual/net/veth0\0SEQNUM=42\0"
                        .getBytes(StandardCharsets.US_ASCII),
                wire);
        UeventMessage back = UeventMessage.decode(wire);
        assertEquals(m, back);
        assertEquals(42, back.seqnum());
        assertEquals("add", back.action());
        assertEquals(42, UeventMessage.seqnumOf(wire));
    }

    @Test
    public void seqnumOfIsMinusOneWhenTheLastKeyIsNotSeqnum() {
        assertEquals(-1, UeventMessage.seqnumOf("a@b\0X=1\0".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, UeventMessage.seqnumOf("a@b\0SEQNUM=\0".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, UeventMessage.seqnumOf("a@b\0SEQNUM=12x\0".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, UeventMessage.seqnumOf(new byte[0]));
        assertEquals(7, UeventMessage.seqnumOf("a@b\0SEQNUM=7\0".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    public void decodeRejectsMalformedWireNamingTheOffset() {
        IllegalArgumentException noNul = org.junit.Assert.assertThrows(
                IllegalArgumentException.class,
                () -> UeventMessage.decode("a@b\0X=1".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("uevent: string at byte 4 is not NUL-terminated", noNul.getMessage());
        IllegalArgumentException noEq = org.junit.Assert.assertThrows(
                IllegalArgumentException.class,
                () -> UeventMessage.decode("a@b\0X=1\0bad\0".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("uevent: key string at byte 8 has no KEY=: 'bad'", noEq.getMessage());
        org.junit.Assert.assertThrows(IllegalArgumentException.class, () -> UeventMessage.decode(new byte[0]));
    }

    @Test
    public void kernelEventPutsKeysInKernelOrderWithSeqnumLast() throws Exception {
        SeqnumCounter c = new SeqnumCounter();
        UeventMessage m = UeventMessage.kernelEvent("add", "/devices/x", "net", Map.of("INTERFACE", "eth0"), c);
        assertEquals(
                java.util.List.of("ACTION", "DEVPATH", "SUBSYSTEM", "INTERFACE", "SEQNUM"),
                java.util.List.copyOf(m.keys().keySet()));
        assertEquals(1, m.seqnum());
        assertEquals("add@/devices/x", m.header());
    }

    @Test
    public void sixtyFourKeysFitButSixtyFiveFailWithEnomem() throws Exception {
        SeqnumCounter c = new SeqnumCounter();
        // ACTION, DEVPATH, SUBSYSTEM + 60 extra + SEQNUM = 64 keys
        UeventMessage ok = UeventMessage.kernelEvent("add", "/d", "net", keys(60), c);
        assertEquals(64, ok.keys().size());
        assertEquals(1, c.last());
        // 61 extra: the 64th key is the last extra one, SEQNUM would be the 65th: the number is consumed (a gap)
        UeventException atSeqnum = org.junit.Assert.assertThrows(
                UeventException.class, () -> UeventMessage.kernelEvent("add", "/d", "net", keys(61), c));
        assertEquals(Errno.ENOMEM, atSeqnum.errno);
        assertEquals(2, c.last());
        // 62 extra: fails before SEQNUM, no number consumed
        UeventException before = org.junit.Assert.assertThrows(
                UeventException.class, () -> UeventMessage.kernelEvent("add", "/d", "net", keys(62), c));
        assertEquals(Errno.ENOMEM, before.errno);
        assertEquals(2, c.last());
    }

    @Test
    public void environmentOver2048BytesFailsWithEnomemAndOnlyBurnsANumberWhenSeqnumIsWhatOverflows() throws Exception {
        SeqnumCounter c = new SeqnumCounter();
        // ACTION=add\0 (11) + DEVPATH=/d\0 (11) + SUBSYSTEM=net\0 (14) = 36 bytes; SEQNUM=1\0 = 9 bytes.
        String fill = "x".repeat(2048 - 36 - 9 - "BIG=".length() - 1);
        UeventMessage exact = UeventMessage.kernelEvent("add", "/d", "net", Map.of("BIG", fill), c);
        assertEquals(1, exact.seqnum());
        UeventException seqnumTooBig = org.junit.Assert.assertThrows(
                UeventException.class,
                () -> UeventMessage.kernelEvent("add", "/d", "net", Map.of("BIG", fill + "x"), c));
        assertEquals(Errno.ENOMEM, seqnumTooBig.errno);
        assertEquals("SEQNUM consumed although it did not fit", 2, c.last());
        UeventException keyTooBig = org.junit.Assert.assertThrows(
                UeventException.class,
                () -> UeventMessage.kernelEvent("add", "/d", "net", Map.of("BIG", "x".repeat(2048)), c));
        assertEquals(Errno.ENOMEM, keyTooBig.errno);
        assertEquals(2, c.last());
    }

    @Test
    public void kernelEventWithoutDevpathOrSubsystemFailsWithoutANumber() {
        SeqnumCounter c = new SeqnumCounter();
        assertEquals(
                Errno.ENOENT,
                org.junit.Assert.assertThrows(
                                UeventException.class, () -> UeventMessage.kernelEvent("add", "", "net", Map.of(), c))
                        .errno);
        assertEquals(
                Errno.EINVAL,
                org.junit.Assert.assertThrows(
                                UeventException.class, () -> UeventMessage.kernelEvent("add", "/d", "", Map.of(), c))
                        .errno);
        assertEquals(0, c.last());
    }

    @Test
    public void injectedMessageMayFill2048BytesWithHeaderAndSeqnumButNotOneMore() throws Exception {
        // 16 (nlmsghdr) + payload + "SEQNUM=7" (8) + NUL (1) <= 2048
        byte[] fits = new byte[2048 - 16 - 9];
        byte[] wire = UeventMessage.appendSeqnum(fits, 7);
        assertEquals(fits.length + 9, wire.length);
        assertEquals(7, UeventMessage.seqnumOf(wire));
        UeventException tooBig = org.junit.Assert.assertThrows(
                UeventException.class, () -> UeventMessage.appendSeqnum(new byte[fits.length + 1], 7));
        assertEquals(Errno.EINVAL, tooBig.errno);
    }
}
