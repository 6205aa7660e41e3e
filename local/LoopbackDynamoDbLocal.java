import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Starts DynamoDB Local listening on 127.0.0.1 only.
 *
 * DynamoDB Local has no option for the address it listens on: its DynamoDBProxyServer creates
 * a Jetty Server(port), whose connector listens on every interface, and it checks no
 * credentials, so anyone who can reach the machine could read and change every account's data.
 * This launcher builds the server from the usual command line (ServerRunner's own parsing),
 * sets the host of the Jetty connector to 127.0.0.1 before the server opens its socket, and
 * after start checks the socket's address: it exits with status 2 rather than serve on anything
 * but loopback (e.g. if a DynamoDB Local update changes those internals).
 *
 * Run as a single-file source program (Java 11+), with the DynamoDB Local jars on the class path:
 *   java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* LoopbackDynamoDbLocal.java -port 8000 -inMemory
 * Used by local/dynamodb-local.ts, for `npm start` and the tests.
 */
public class LoopbackDynamoDbLocal {
  static final String HOST = "127.0.0.1";

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy;
    try {
      proxy = ServerRunner.createServerFromCommandLineArgs(args);
    } catch (Exception error) {
      System.err.println("DynamoDB Local: bad arguments: " + error);
      System.exit(1);
      return;
    }
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) fail("the Jetty server has no connector", proxy);
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector)) fail("unexpected Jetty connector " + connector, proxy);
      ((ServerConnector) connector).setHost(HOST);
    }
    // safeStart(): Jetty's start() without DynamoDB Local's start-up telemetry event.
    proxy.safeStart();
    for (Connector connector : jetty.getConnectors()) {
      Object transport = ((ServerConnector) connector).getTransport();
      SocketAddress bound = transport instanceof ServerSocketChannel ? ((ServerSocketChannel) transport).getLocalAddress() : null;
      InetAddress address = bound instanceof InetSocketAddress ? ((InetSocketAddress) bound).getAddress() : null;
      if (address == null || !address.isLoopbackAddress()) fail("listening on " + bound + ", not on loopback only", proxy);
    }
    proxy.join();
  }

  static void fail(String why, DynamoDBProxyServer proxy) {
    System.err.println("DynamoDB Local not started: " + why);
    try {
      proxy.stop();
    } catch (Exception ignored) {
      // exiting anyway
    }
    System.exit(2);
  }
}
