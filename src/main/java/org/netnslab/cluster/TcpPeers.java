package org.netnslab.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The peers of the TCP connections accepted on a local port, as the kernel lists them in /proc/net/tcp and
 * /proc/net/tcp6 (this network namespace's sockets; an IPv4 peer of a dual-stack socket is shown as IPv4). Akka's TLS
 * stage does not tell which peer a failed handshake was with; the connection that closes right after the failure
 * does ({@link HandshakeReporter}).
 */
final class TcpPeers {
    private TcpPeers() {}

    /** tcp_states.h: TCP_ESTABLISHED, and TCP_CLOSE_WAIT (the peer closed first, after its alert). */
    private static final Set<String> OPEN = Set.of("01", "08");

    /**
     * @param port a local port
     * @return the peers ({@code address:port}) of this namespace's open connections on that local port; empty where
     *     /proc/net/tcp is not there (not Linux)
     * @throws IOException when /proc/net/tcp cannot be read
     */
    static Set<String> open(int port) throws IOException {
        Set<String> peers = new TreeSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (NoSuchFileException e) {
                continue; // no IPv6, or not Linux: nothing listed
            }
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 3 && OPEN.contains(f[3]) && f[1].endsWith(String.format(":%04X", port))) {
                    peers.add(endpoint(f[2]));
                }
            }
        }
        return peers;
    }

    /**
     * @param hex an endpoint as /proc/net/tcp writes it: the address in 32-bit words of host byte order (little-endian
     *     here), a colon, the port
     * @return {@code address:port}
     */
    static String endpoint(String hex) {
        int colon = hex.indexOf(':');
        byte[] words = HexFormat.of().parseHex(hex.substring(0, colon));
        byte[] address = new byte[words.length];
        for (int i = 0; i < words.length; i += 4) {
            for (int j = 0; j < 4; j++) {
                address[i + j] = words[i + 3 - j];
            }
        }
        int port = Integer.parseInt(hex.substring(colon + 1), 16);
        try {
            return InetAddress.getByAddress(address).getHostAddress() + ":" + port; // ::ffff:a.b.c.d gives a.b.c.d
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address: " + hex, e); // 4 or 16 bytes always are
        }
    }
}
