import type * as Nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { onFirstUse } from './on-first-use.ts';

const nodemailer = onFirstUse<typeof Nodemailer>('nodemailer');

export const DEFAULT_MAIL_FROM = 'Outlay <no-reply@outlay.local>';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

/** Sends one message; rejects when the server refuses it or cannot be reached. */
export interface Mailer {
  readonly from: string;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * A mailer over SMTP (`smtp://user:pass@host:port`, `smtps://…` for implicit TLS). Connections
 * are pooled and time out rather than hang the job runner.
 */
export function createSmtpMailer(url: string, from: string = DEFAULT_MAIL_FROM): Mailer {
  const parsed = new URL(url);
  const transport: Transporter = nodemailer().createTransport({
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : parsed.protocol === 'smtps:' ? 465 : 587,
    secure: parsed.protocol === 'smtps:',
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    // A local relay (and the tests' server) speaks plain SMTP; STARTTLS is used when offered.
    tls: { rejectUnauthorized: parsed.searchParams.get('tlsRejectUnauthorized') !== 'false' },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    from,
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        attachments: message.attachments,
      });
    },
    close() {
      transport.close();
    },
  };
}
