/**
 * The floor the proxy is compared with: the least a Node proxy can do, with none of the
 * checks, rewriting or limits of ours. API GETs go to the upstream on kept-alive
 * connections with the key added and the answer written back in one call; asset paths
 * are piped. Plain JavaScript, run by plain Node as a process of its own, as the proxy is:
 * `SKYBOX_API_KEY=… node test/bench/bare-proxy.mjs UPSTREAM_URL`; prints `{"url"}` once
 * listening on 127.0.0.1.
 */
import http from "node:http";

const upstream = new URL(process.argv[2]);
const key = process.env.SKYBOX_API_KEY;
const agent = new http.Agent({ keepAlive: true });
const ASSETS = /^\/skybox\/assets\/https?\/[^/]+/;

const server = http.createServer((req, res) => {
  const url = req.url;
  const asset = ASSETS.exec(url);
  const path = asset ? url.slice(asset[0].length) : url.replace(/^\/skybox/, "");
  const headers = asset ? {} : { "x-api-key": key };
  const out = http.request({ hostname: upstream.hostname, port: upstream.port, path, headers, agent: asset ? false : agent }, (answer) => {
    if (asset) {
      res.writeHead(answer.statusCode, {
        "content-type": answer.headers["content-type"],
        "content-length": answer.headers["content-length"],
      });
      return void answer.pipe(res);
    }
    const chunks = [];
    answer.on("data", (chunk) => chunks.push(chunk));
    answer.on("end", () => {
      const body = Buffer.concat(chunks);
      res.writeHead(answer.statusCode, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
  });
  out.on("error", () => res.destroy());
  out.end();
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })));
process.on("SIGTERM", () => process.exit(0));
