import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.regex.Pattern;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Starts DynamoDB Local listening on 127.0.0.1 only, answering only requests addressed to a
 * loopback host.
 *
 * DynamoDB Local has no option for the address it listens on: its DynamoDBProxyServer creates
 * a Jetty Server(port), whose connector listens on every interface, and it checks no
 * credentials, so anyone who can reach the machine could read and change every account's data.
 * This launcher builds the server from the usual command line (ServerRunner's own parsing),
 * sets the host of the Jetty connector to 127.0.0.1 before the server opens its socket, and
 * after start checks the socket's address: it exits with status 2 rather than serve on anything
 * but loopback (e.g. if a DynamoDB Local update changes those internals).
 *
 * Loopback alone does not keep out a web page in the developer's browser: by DNS rebinding, a
 * name of the page's own (evil.example) comes to resolve to 127.0.0.1, and the browser then
 * lets the page read what it sends there. Such requests carry the page's name in `Host`, so a
 * Jetty handler in front of DynamoDB Local's own answers 403 to any `Host` but localhost,
 * 127.x.x.x or [::1], each with an optional port (Jetty itself refuses a request without one).
 *
 * Run as a single-file source program (Java 11+), with the DynamoDB Local jars on the class path:
 *   java -cp DynamoDBLocal.jar:DynamoDBLocal_lib/* LoopbackDynamoDbLocal.java -port 8000 -inMemory
 * Used by local/dynamodb-local.ts, for `npm start` and the tests, which compiles it once with
 * javac and runs the class (a source program is compiled again at every start).
 */
public class LoopbackDynamoDbLocal {
  static final String HOST = "127.0.0.1";
  /** The `Host` header values of loopback: localhost, 127.x.x.x, [::1], each with an optional port. */
  static final Pattern LOOPBACK_HOST = Pattern.compile("(?i)(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d{1,5})?");

  /** Answers 403 to a request whose `Host` is not a loopback name or address; hands the others on. */
  static final class LoopbackHostOnly extends HandlerWrapper {
    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
      String host = request.getHeader("Host");
      if (host != null && LOOPBACK_HOST.matcher(host).matches()) {
        super.handle(target, base, request, response);
        return;
      }
      base.setHandled(true);
      response.setStatus(HttpServletResponse.SC_FORBIDDEN);
      response.setContentType("text/plain;charset=utf-8");
      response.getWriter().print("DynamoDB Local answers requests to a loopback host only (Host: localhost, 127.x.x.x or [::1])\n");
    }
  }

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
    Handler dynamoDb = jetty.getHandler();
    if (dynamoDb == null) fail("the Jetty server has no handler", proxy);
    LoopbackHostOnly guard = new LoopbackHostOnly();
    guard.setHandler(dynamoDb);
    jetty.setHandler(guard);
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
