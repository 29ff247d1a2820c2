#!/usr/bin/env python3
"""delay-relay.py LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS

A TCP relay on 127.0.0.1:LISTEN_PORT to TARGET that delays every chunk DELAY_MS in each direction (so a
round trip through it costs 2 x DELAY_MS more), keeping the order and the throughput: each chunk is due
DELAY_MS after it arrived, and a writer per direction sends chunks as they fall due (no chunk waits for the
previous one's delay). For latency benchmarks on loopback (postgres-latency-bench.sh)."""
import asyncio, sys, time

listen_port, host, port, delay = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]) / 1000

async def pump(reader, writer):
    queue = asyncio.Queue()
    async def send():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        writer.close()
    sender = asyncio.create_task(send())
    try:
        while data := await reader.read(1 << 16):
            queue.put_nowait((time.monotonic() + delay, data))
    except ConnectionError:
        pass
    queue.put_nowait((0, None))
    await sender

async def handle(client_reader, client_writer):
    try:
        server_reader, server_writer = await asyncio.open_connection(host, port)
    except OSError:
        client_writer.close()
        return
    await asyncio.gather(pump(client_reader, server_writer), pump(server_reader, client_writer), return_exceptions=True)

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()

asyncio.run(main())
