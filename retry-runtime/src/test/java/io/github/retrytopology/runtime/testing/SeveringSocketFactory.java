package io.github.retrytopology.runtime.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.SocketFactory;

/**
 * Makes the sockets of a connection and can cut them, as a network failure would: the client sees its
 * connection drop and recovers it, and the broker sees the TCP connection end and requeues what was unacked.
 */
public final class SeveringSocketFactory extends SocketFactory {

    private final SocketFactory sockets = SocketFactory.getDefault();
    private final List<Socket> made = new CopyOnWriteArrayList<>();

    /** Closes every socket made so far. */
    public void sever() throws IOException {
        for (Socket socket : made) {
            socket.close();
        }
        made.clear();
    }

    @Override
    public Socket createSocket() throws IOException {
        return keep(sockets.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return keep(sockets.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return keep(sockets.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return keep(sockets.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return keep(sockets.createSocket(address, port, localAddress, localPort));
    }

    private Socket keep(Socket socket) {
        made.add(socket);
        return socket;
    }
}
