// A minimal SMTP server that accepts every message and keeps it: enough for nodemailer over plain smtp://
// (no STARTTLS, no AUTH), so tests can count what the mail-delivery job really sent.
import { createServer, type Socket } from 'node:net';

export interface SunkMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as sent. */
  data: string;
  subject: string;
}

export interface SmtpSink {
  url: string;
  mails: SunkMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let inData = false;
    let current: { from: string; to: string[]; data: string[] } = { from: '', to: [], data: [] };
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const data = current.data.join('\r\n');
            const subject = /^Subject: (.*)$/m.exec(data)?.[1] ?? '';
            mails.push({ from: current.from, to: current.to, data, subject });
            current = { from: '', to: [], data: [] };
            say('250 2.0.0 queued');
          } else {
            current.data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') say('250 sink');
        else if (verb === 'HELO') say('250 sink');
        else if (verb === 'MAIL') {
          current.from = line.slice(10);
          say('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          current.to.push(line.slice(8));
          say('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          say('354 end with .');
        } else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else say('250 ok');
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('smtp sink did not listen');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
