package org.netnslab.userns;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.scalatestplus.junit.JUnitSuite;

public class CredentialsTest extends JUnitSuite {
    // init (level 0) -> a (created by kuid 1000) -> b (created by kuid 2000 from inside a)
    private final UserNamespace init = UserNamespace.INIT;
    private final UserNamespace a = init.createChild(1, 1000);
    private final UserNamespace b = a.createChild(2, 2000);
    private final UserNamespace sibling = init.createChild(3, 3000);

    @Test
    public void capSysAdminMatrixOverAThreeLevelTree() {
        Credentials initRoot = Credentials.root(init, 0);
        Credentials initUser = Credentials.unprivileged(init, 1000); // a's creator, no caps in init
        Credentials aRoot = Credentials.root(a, 1000);
        Credentials aOther = Credentials.root(a, 1500); // root inside a but not b's creator
        Credentials aUnpriv = Credentials.unprivileged(a, 2000); // b's creator, unprivileged in a
        Credentials bRoot = Credentials.root(b, 2000);
        Credentials siblingRoot = Credentials.root(sibling, 3000);

        List<String> got = new ArrayList<>();
        for (Credentials c : List.of(initRoot, initUser, aRoot, aOther, aUnpriv, bRoot, siblingRoot)) {
            StringBuilder row = new StringBuilder();
            for (UserNamespace target : List.of(init, a, b, sibling)) {
                row.append(c.nsCapable(target, Capability.CAP_SYS_ADMIN) ? 'Y' : '-');
            }
            got.add(row.toString());
        }
        assertEquals(
                List.of(
                        "YYYY", // init root: its namespace and every descendant
                        "-YY-", // owner of a from init: all caps in a and below, none in init or a sibling
                        "-YY-", // root in a: a and b
                        "-YY-", // root in a (not b's creator): still a and b through a's capabilities
                        "--Y-", // unprivileged in a but b's creator: b only
                        "--Y-", // root in b: b only
                        "---Y" // sibling root: its own only
                        ),
                got);
    }

    @Test
    public void capabilityNotHeldIsRefusedEvenInOwnNamespace() {
        Credentials c = new Credentials(5, a, java.util.EnumSet.of(Capability.CAP_NET_ADMIN));
        assertEquals(false, c.nsCapable(a, Capability.CAP_SYS_ADMIN));
        assertEquals(true, c.nsCapable(a, Capability.CAP_NET_ADMIN));
    }
}
