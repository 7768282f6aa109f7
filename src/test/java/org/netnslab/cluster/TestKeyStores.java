package org.netnslab.cluster;

import static org.junit.Assert.assertEquals;

import java.nio.file.Path;

/** Key stores for the TLS tests, made by this JVM's keytool. */
final class TestKeyStores {
    private TestKeyStores() {}

    /**
     * Makes a PKCS12 store at {@code store}, password {@code changeme}, holding one EC key pair {@code node} with a
     * self-signed certificate.
     *
     * @param startDate keytool's -startdate, e.g. "-10d"
     * @param validityDays keytool's -validity
     */
    static void keyPair(Path store, String startDate, int validityDays) throws Exception {
        Process keytool = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "keytool")
                                .toString(),
                        "-genkeypair",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        store.toString(),
                        "-storepass",
                        "changeme",
                        "-alias",
                        "node",
                        "-keyalg",
                        "EC",
                        "-dname",
                        "CN=node",
                        "-startdate",
                        startDate,
                        "-validity",
                        Integer.toString(validityDays))
                .redirectErrorStream(true)
                .start();
        String said = new String(keytool.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(said, 0, keytool.waitFor());
    }
}
