import mysql from 'mysql2/promise'

const SERVER = { host: '127.0.0.1', port: 3306, user: 'root' }

/** A fresh MariaDB database for one variant run; `drop` removes it afterwards. */
export async function freshMysqlDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const connection = await mysql.createConnection(SERVER)
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``)
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
  } finally {
    await connection.end()
  }
  return {
    url: `mysql://${SERVER.user}@${SERVER.host}:${SERVER.port}/${name}`,
    drop: async () => {
      const cleanup = await mysql.createConnection(SERVER)
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS \`${name}\``)
      } finally {
        await cleanup.end()
      }
    },
  }
}
