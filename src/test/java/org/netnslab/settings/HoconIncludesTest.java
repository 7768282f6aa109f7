package org.netnslab.settings;

import static org.junit.Assert.assertEquals;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigOriginFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.scalatestplus.junit.JUnitSuite;

/**
 * An include Typesafe Config could open but not read, as it reports it (the file read as root here, so the
 * failure is made as Typesafe Config makes it): said at the include's line, without Java's exception.
 */
public class HoconIncludesTest extends JUnitSuite {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void anIncludeThisUserMayNotReadIsSaidAtItsLine() throws Exception {
        Path f = tmp.newFile("s.conf").toPath();
        Files.writeString(f, "name = x\ninclude required(\"secret.conf\")\n");
        Path secret = f.resolveSibling("secret.conf");
        ConfigException e = new ConfigException.IO(
                ConfigOriginFactory.newFile(secret.toString()),
                secret + ": java.io.FileNotFoundException: " + secret + " (Permission denied)");
        ConfigProblem p = HoconSyntax.parseProblem(f, e, "-");
        assertEquals(f.toString(), p.source());
        assertEquals(2, p.line());
        assertEquals("include", p.path());
        assertEquals("included file secret.conf cannot be read: permission denied", p.message());
    }

    /** One a file this one includes makes is said on this file, naming the file it could not read. */
    @Test
    public void anUnreadableIncludeOfAnIncludedFileNamesIt() throws Exception {
        Path f = tmp.newFile("s.conf").toPath();
        Files.writeString(f, "name = x\ninclude required(\"middle.conf\")\n");
        String deep = f.resolveSibling("deep.conf").toString();
        ConfigException e = new ConfigException.IO(
                ConfigOriginFactory.newFile(deep),
                deep + ": java.io.FileNotFoundException: " + deep + " (Permission denied)");
        ConfigProblem p = HoconSyntax.parseProblem(f, e, "-");
        assertEquals(-1, p.line());
        assertEquals("included file " + deep + " cannot be read: permission denied", p.message());
    }
}
